import { webhookGroupRoutes, type WebhookGroup } from '../../../contract/api/webhookGroup';
import { WEBHOOK_GROUP_PAGE_SIZE } from '../../../contract/constants';
import { callRoute } from '../http';
import { asRecord, toListResult } from '../paging';
import type { ResourceEndpoints } from '../types';

/** webhookGroups: GET /api/receiveonly/all (page 0, size 5); PATCH /api/receiveonly/{id} switches Receive Webhook Once. */
export const webhookGroupEndpoints: ResourceEndpoints<WebhookGroup> = {
  async getList() {
    return toListResult(await callRoute(webhookGroupRoutes.list, { query: { pageIndex: 0, pageSize: WEBHOOK_GROUP_PAGE_SIZE } }), asRecord);
  },
  async update({ id, data, previousData }) {
    const isActive = data.isActive ?? previousData.isActive;
    const updated = await callRoute(webhookGroupRoutes.update, { params: { id: Number(id) }, body: { isActive } });
    return { data: { ...previousData, ...updated } };
  },
};
