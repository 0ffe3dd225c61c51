import { registrationIdRoutes, type RegistrationIdItem } from '../../../contract/api/registrationId';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { filterList } from '../common/listParams';

/** registrationIds: POST /api/registrationid/search (filter name status). */
export const registrationIdEndpoints: ResourceEndpoints<RegistrationIdItem> = {
  async getList(params) {
    const filter = filterList(params.filter, ['status']).map((item) => ({ name: item.name, value: Number(item.value) }));
    return toListResult(await callRoute(registrationIdRoutes.search, { body: { ...wirePage(params), filter } }), asRecord);
  },
};
