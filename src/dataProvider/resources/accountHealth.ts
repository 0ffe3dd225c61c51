import { accountHealthRoutes, type HealthRow } from '../../../contract/api/accountHealth';
import { callRoute } from '../http';
import { toListResult, wholeNumber, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

export type HealthRecord = HealthRow & { id: number };

/** accountHealth: POST /api/health/search (platform, problems only); rows are keyed by customer. */
export const accountHealthEndpoints: ResourceEndpoints<HealthRecord> = {
  async getList(params) {
    const platform = wholeNumber(params.filter?.platformType);
    const body = { ...wirePage(params), platformType: platform && platform > 0 ? platform : null, problemsOnly: params.filter?.problems === 'true' };
    return toListResult(await callRoute(accountHealthRoutes.search, { body }), (row) => ({ ...row, id: row.customerId }));
  },
};

export const accountHealthActions = {
  /** Syncs wallets and key health of every connected customer now. */
  syncAccountHealth: () => callRoute(accountHealthRoutes.sync, { body: {} }),
};
