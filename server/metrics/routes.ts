import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { fail, ok } from '../http/envelope';
import { safeEqual } from '../lib/tokens';
import { readiness } from './readiness';
import { createMetrics } from './scrape';

const outsideTheApi = { access: 'public' as const };

/**
 * GET /metrics (Prometheus text format; only with METRICS_TOKEN set, and only for requests that carry
 * it as `Authorization: Bearer <token>`, compared in constant time), GET /healthz (the process answers)
 * and GET /readyz (the database and both exchanges answer: 200, else 503 naming what does not).
 */
export function registerMetricsRoutes(app: FastifyInstance, deps: Deps): void {
  const token = deps.config.metricsToken;
  if (token) {
    const metrics = createMetrics(deps);
    const expected = `Bearer ${token}`;
    app.get('/metrics', { config: outsideTheApi, schema: { hide: true } }, async (request, reply) => {
      const sent = request.headers.authorization ?? '';
      if (!safeEqual(sent, expected)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send(fail('GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>.'));
      }
      const text = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    });
  }
  app.get('/healthz', { config: outsideTheApi, schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-store').send(ok({ status: 'up' })));
  app.get('/readyz', { config: outsideTheApi, schema: { hide: true } }, async (_request, reply) => {
    const state = await readiness(deps);
    reply.header('cache-control', 'no-store');
    if (state.ready) return reply.send(ok(state));
    const down = [...(state.database ? [] : ['the database']), ...Object.entries(state.exchanges).filter(([, up]) => !up).map(([name]) => name)];
    return reply.status(503).send({ ...fail(`Not ready: ${down.join(', ')} did not answer.`), data: state });
  });
}
