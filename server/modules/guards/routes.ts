import type { FastifyInstance } from 'fastify';
import { guardRoutes, type StrategyGuards, type StrategyGuardsBody } from '../../../contract/api/guards';
import type { Deps } from '../../deps';
import { server as messages } from '../../../contract/messages';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { setStrategyGuards, strategyGuardsOf } from './repository';

/**
 * A strategy's guards (issue 29): staff read them, admins set them. The maximum alert age acts where an
 * alert is received (`server/trading/intake.ts`, from the webhook snapshot), the maximum slippage where an
 * entry is sized (`server/trading/steps/entry.ts`, from the execution's context).
 */
export function registerGuardRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  const defaultMaxAlertAgeS = Math.round(deps.config.trading.maxAlertAgeMs / 1000);
  const answer = (guards: StrategyGuardsBody | undefined): StrategyGuards => {
    if (!guards) throw notFound(messages.notFound('Strategy'));
    return { ...guards, defaultMaxAlertAgeS };
  };

  registerRoute(app, guardRoutes.strategyGuards, async ({ params }) => answer(await strategyGuardsOf(db, params.id)));
  registerRoute(app, guardRoutes.setStrategyGuards, async ({ params, body, auth }) =>
    answer(await setStrategyGuards(db, params.id, body, auth.accountId)),
  );
}
