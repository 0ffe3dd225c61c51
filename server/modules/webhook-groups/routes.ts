import type { FastifyInstance } from 'fastify';
import { asc, count, eq } from 'drizzle-orm';
import { webhookGroupRoutes } from '../../../contract/api/webhookGroup';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { webhookGroupSettings } from '../../db/schema/index';
import { offsetOf, pageOf } from '../../db/paging';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';

export function registerWebhookGroupRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, webhookGroupRoutes.list, async ({ query }) => {
    const [rows, [total]] = await Promise.all([
      deps.db.select().from(webhookGroupSettings).orderBy(asc(webhookGroupSettings.group)).limit(query.pageSize).offset(offsetOf(query)),
      deps.db.select({ n: count() }).from(webhookGroupSettings),
    ]);
    const data = rows.map((r) => ({ id: r.id, group: r.group, isActive: r.isActive, datetimeUpdated: r.datetimeUpdated.toISOString() }));
    return pageOf(data, total?.n ?? 0, query);
  });

  registerRoute(app, webhookGroupRoutes.update, async ({ params, body, auth }) =>
    deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhookGroupSettings)
        .set({ isActive: body.isActive, datetimeUpdated: deps.clock.now() })
        .where(eq(webhookGroupSettings.id, params.id))
        .returning();
      if (!row) throw notFound(messages.notFound('Webhook group'));
      await logStaffAction(tx, {
        actorAccountId: auth.accountId,
        action: body.isActive ? 'receiveOnce.on' : 'receiveOnce.off',
        targetType: 'webhookGroup',
        targetId: row.id,
        details: { group: row.group },
      });
      return { id: row.id, isActive: row.isActive, datetimeUpdated: row.datetimeUpdated.toISOString() };
    }),
  );
}
