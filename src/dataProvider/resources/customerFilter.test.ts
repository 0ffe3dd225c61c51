import { describe, expect, it } from 'vitest';
import { toCustomerFilter, toCustomerSort } from './customerFilter';

describe('customer list filter', () => {
  it('maps the query parameters onto the filter lists', () => {
    expect(toCustomerFilter({ country: '12', agent: '3', status: '2', group: '4', month: '2025-01', platformType: '2' })).toEqual({
      statuses: [2],
      countryIds: [12],
      agentIds: [3],
      groups: [4],
      datetimesInserted: ['2025-01'],
      platformTypes: [2],
    });
  });
  it('leaves out empty and malformed values', () => {
    expect(toCustomerFilter({ country: '', agent: 'x' })).toEqual({ statuses: [], countryIds: [], agentIds: [], groups: [], datetimesInserted: [], platformTypes: [] });
  });
  it('sorts only on known fields', () => {
    expect(toCustomerSort({ field: 'currentWalletAmount', order: 'DESC' })).toEqual({ name: 'currentWalletAmount', type: 2 });
    expect(toCustomerSort({ field: '', order: 'ASC' })).toBeNull();
  });
});
