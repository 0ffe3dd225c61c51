import { REGISTRATION_ID_FILTERS } from '../../../contract/api/registrationId';
import { RegistrationIdStatus, enumValues } from '../../../contract/enums';
import type { FilterItem } from '../../../contract/common';
import { filterValue } from '../../db/paging';
import { idFilter } from '../orders/filters';
import { badRequest } from '../../http/errors';
import type { RegistrationIdQuery } from './repository';

const STATUSES: readonly number[] = enumValues(RegistrationIdStatus);
/** "All Statuses" may arrive as an empty value or as 0. */
const ALL_STATUSES = '0';

/** Reads the search body's `filter: [{ name, value }]` list; unknown names and bad values are 400s. */
export function parseRegistrationIdFilter(filter: FilterItem[]): RegistrationIdQuery {
  for (const item of filter) {
    if (!(REGISTRATION_ID_FILTERS as readonly string[]).includes(item.name)) {
      throw badRequest(`Unknown filter '${item.name}'; use ${REGISTRATION_ID_FILTERS.join(', ')}`);
    }
  }
  const query: RegistrationIdQuery = {};
  const status = filterValue(filter, 'status');
  if (status !== undefined && status !== ALL_STATUSES) {
    const value = Number(status);
    if (!STATUSES.includes(value)) throw badRequest('filter status must be 1 (Pending), 2 (Registered) or 3 (Expired)');
    query.status = value as RegistrationIdStatus;
  }
  const code = filterValue(filter, 'code');
  if (code !== undefined) query.code = code;
  const agentId = idFilter(filter, 'agentId');
  if (agentId !== undefined) query.agentId = agentId;
  return query;
}
