import { accountHealthRoutes, type HealthRow } from '../../../contract/api/accountHealth';
import { callRoute } from '../../dataProvider/http';
import { toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';

export type HealthRecord = HealthRow & { id: number };

/** accountHealth: POST /api/health/search (platform, problems only). */
export const accountHealthEndpoints: ResourceEndpoints<HealthRecord> = {
  async getList(params) {
    const platform = Number(params.filter?.platformType);
    const body = { ...wirePage(params), platformType: platform > 0 ? platform : null, problemsOnly: params.filter?.problems === 'true' };
    return toListResult(await callRoute(accountHealthRoutes.search, { body }), (row) => ({ ...row, id: row.customerId }));
  },
};
