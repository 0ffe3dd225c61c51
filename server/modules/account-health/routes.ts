import type { FastifyInstance } from 'fastify';
import { accountHealthRoutes } from '../../../contract/api/accountHealth';
import type { Deps } from '../../deps';
import { pageOf } from '../../db/paging';
import { conflict, notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { runWalletSync, startWalletSyncJob } from './job';
import { connectedCustomers, searchHealth } from './repository';
import { syncCustomers } from './sync';

export function registerAccountHealthRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, accountHealthRoutes.search, async ({ body }) => {
    const { rows, total } = await searchHealth(deps.db, body);
    return pageOf(rows, total, body);
  });

  registerRoute(app, accountHealthRoutes.sync, async ({ body, auth }) => {
    const customerId = body.customerId ?? undefined;
    let result;
    if (customerId !== undefined) {
      if ((await connectedCustomers(deps.db, customerId)).length === 0) throw notFound(`Customer ${customerId} does not exist or has no exchange connected`);
      result = await syncCustomers(deps, customerId);
    } else {
      result = await runWalletSync(deps);
      if (!result) throw conflict('A wallet sync of every customer is already running; its results appear here in a minute');
    }
    await logStaffAction(deps.db, { actorAccountId: auth.accountId, action: 'wallet_sync', targetType: 'customer', targetId: customerId ?? 'all', details: { ...result } });
    return result;
  });

  // The periodic sync runs in the processes that run background work (RUN_DISPATCHER, on by default).
  if (deps.config.runDispatcher) {
    let job: ReturnType<typeof startWalletSyncJob> | undefined;
    app.addHook('onReady', async () => {
      job = startWalletSyncJob(deps, deps.config.walletSyncIntervalMs);
    });
    app.addHook('onClose', async () => job?.stop());
  }
}
