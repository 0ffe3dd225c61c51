import type { FastifyInstance } from 'fastify';
import { StrategyStatus } from '../../../contract/enums';
import { webhookRoutes } from '../../../contract/api/webhook';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { auditRefusedAlert, findWebhookStrategy, receiveAlert } from '../../trading/intake';
import { normalizeTicker, parseAlert } from './parse';

/**
 * POST /api/webhook/:token. Bodies are read as text whatever their content type (TradingView sends
 * text/plain when the message is not JSON), then understood by `parseAlert` and handed to trading's
 * intake. The token -> strategy cache listens for strategy changes while the app runs.
 */
export async function registerWebhookRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const trading = deps.config.trading;
  app.addHook('onReady', async () => {
    await deps.intake.strategies.start(deps.db, deps.pool, deps.log);
  });
  app.addHook('onClose', async () => deps.intake.strategies.stop());
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    registerRoute(scope, webhookRoutes.receive, async ({ params, request }) => {
      if (trading.webhookAllowList && !trading.webhookAllowList.includes(request.ip)) {
        throw forbidden(`Webhook calls are accepted only from TradingView's addresses; ${request.ip} is not one of them.`);
      }
      const strategy = await findWebhookStrategy(deps, params.token);
      if (!strategy || strategy.status !== StrategyStatus.Active) {
        throw notFound('No active strategy has this webhook URL: check the URL in the TradingView alert, or activate the strategy.');
      }
      const body = typeof request.body === 'string' ? request.body : '';
      const parsed = parseAlert(body, strategy.entryDirection);
      if (!parsed.ok) {
        await auditRefusedAlert(deps, strategy.id, parsed.reason);
        throw badRequest(`The alert could not be understood: ${parsed.reason}.`);
      }
      if (parsed.alert.ticker !== null && normalizeTicker(parsed.alert.ticker) !== normalizeTicker(strategy.symbol)) {
        const reason = `ticker ${parsed.alert.ticker} is not this strategy's symbol ${strategy.symbol}`;
        await auditRefusedAlert(deps, strategy.id, reason);
        throw badRequest(`The alert was refused: ${reason}.`);
      }
      return receiveAlert(deps, { strategy, alert: parsed.alert, body, sourceIp: request.ip });
    });
  });
}
