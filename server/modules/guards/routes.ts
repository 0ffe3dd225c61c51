import type { FastifyInstance } from 'fastify';
import { guardRoutes, type CustomerGuards, type StrategyGuards, type StrategyGuardsBody } from '../../../contract/api/guards';
import type { Deps } from '../../deps';
import { server as messages } from '../../../contract/messages';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { customerGuardsOf, setCustomerGuards, setStrategyGuards, strategyGuardsOf } from './repository';

/**
 * Guards of a strategy and of a customer (issue 29): staff read them, admins set them. The maximum alert
 * age acts where an alert is received (`server/trading/intake.ts`, from the webhook snapshot); the maximum
 * slippage and the customer's guards where an entry is sized (`server/trading/steps/entry.ts` and
 * `steps/customer-guards.ts`, from the execution's context).
 */
export function registerGuardRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  const defaultMaxAlertAgeS = Math.round(deps.config.trading.maxAlertAgeMs / 1000);
  const answer = (guards: StrategyGuardsBody | undefined): StrategyGuards => {
    if (!guards) throw notFound(messages.notFound('Strategy'));
    return { ...guards, defaultMaxAlertAgeS };
  };

  registerRoute(app, guardRoutes.strategyGuards, async ({ params }) => answer(await strategyGuardsOf(db, params.id)));
  registerRoute(app, guardRoutes.setStrategyGuards, async ({ params, body, auth }) => {
    const guards = await setStrategyGuards(db, params.id, body, auth.accountId);
    // The maximum alert age is judged from the webhook snapshot: the next alert sees the new one.
    deps.intake.strategies.changed();
    return answer(guards);
  });

  const customerAnswer = (guards: CustomerGuards | undefined): CustomerGuards => {
    if (!guards) throw notFound(messages.notFound('Customer'));
    return guards;
  };
  registerRoute(app, guardRoutes.customerGuards, async ({ params }) => customerAnswer(await customerGuardsOf(db, params.id)));
  registerRoute(app, guardRoutes.setCustomerGuards, async ({ params, body, auth }) =>
    customerAnswer(await setCustomerGuards(db, params.id, body, auth.accountId)),
  );
}
