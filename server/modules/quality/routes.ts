import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { qualityRoutes } from '../../../contract/api/quality';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import { orders, strategies } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { orderQuality, strategyExecutionsQuality, strategyQuality } from './repository';

async function requireStrategy(db: DbOrTx, id: string): Promise<void> {
  const [row] = await db.select({ id: strategies.id }).from(strategies).where(and(eq(strategies.id, id), isNull(strategies.deletedAt))).limit(1);
  if (!row) throw notFound(`Strategy ${id} does not exist.`);
}

/** Execution quality (issue 29): staff read it per order and per strategy; the export is the strategy's copies as rows. */
export function registerQualityRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;
  registerRoute(app, qualityRoutes.order, async ({ params }) => {
    const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, params.id)).limit(1);
    if (!order) throw notFound(messages.notFound('Order'));
    return orderQuality(db, params.id);
  });
  registerRoute(app, qualityRoutes.strategy, async ({ params, query }) => {
    await requireStrategy(db, params.id);
    return strategyQuality(db, params.id, query.days);
  });
  registerRoute(app, qualityRoutes.strategyExecutions, async ({ params, query }) => {
    await requireStrategy(db, params.id);
    return strategyExecutionsQuality(db, params.id, query.days);
  });
}
