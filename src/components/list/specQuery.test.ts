import { describe, expect, it } from 'vitest';
import { toListSearch, toSpecSearch } from './specQuery';

const customers = { filters: ['country', 'agent', 'status', 'group', 'month', 'platformType'], perPage: 50 } as const;
const parse = (search: string) => Object.fromEntries(new URLSearchParams(search));

describe('spec query string <-> react-admin list parameters', () => {
  it('reads pageIndex (1-based), pageSize, the three-state sort and the list filters', () => {
    const search = toListSearch('?pageIndex=3&country=5&status=2&month=2025-02&sort=account.firstName&order=2&pageSize=25&success=True', customers);
    expect(parse(search)).toEqual({
      page: '3',
      perPage: '25',
      sort: 'account.firstName',
      order: 'DESC',
      filter: JSON.stringify({ country: '5', status: '2', month: '2025-02' }),
    });
  });

  it('reads an address bar without list parameters as the defaults', () => {
    expect(toListSearch('', customers)).toBe('');
    expect(toListSearch('?pageIndex=1&order=3&sort=name&pageSize=7', customers)).toBe('');
  });

  it('adds the filters kept out of the URL (the name search)', () => {
    expect(parse(toListSearch('?group=3', customers, { q: 'carl' }))).toEqual({ filter: JSON.stringify({ q: 'carl', group: '3' }) });
  });

  it('writes page, size, sort and filters the spec way, leaving defaults and other parameters alone', () => {
    const list = '?page=2&perPage=50&sort=account.firstName&order=ASC&filter=' + encodeURIComponent(JSON.stringify({ group: 3, q: 'carl', month: '' })) + '&displayedFilters=%7B%7D';
    expect(toSpecSearch(list, '?success=True&pageIndex=5&month=2025-01', customers)).toEqual({
      search: '?success=True&pageIndex=2&group=3&sort=account.firstName&order=1',
      local: { q: 'carl' },
    });
  });

  it('drops pageIndex on page 1 and sort on "not sorted"', () => {
    const list = '?page=1&perPage=50&sort=&order=ASC&filter=%7B%22group%22%3A%223%22%7D';
    expect(toSpecSearch(list, '?pageIndex=2&sort=account.firstName&order=2', customers)).toEqual({ search: '?group=3', local: {} });
  });

  it('round-trips', () => {
    const spec = '?symbol=BTCUSDT&month=2025-01&pageIndex=2';
    const options = { filters: ['symbol', 'month'], perPage: 50 };
    expect(toSpecSearch(toListSearch(spec, options), spec, options).search).toBe(spec);
  });
});
