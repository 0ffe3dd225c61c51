import { describe, expect, it } from 'vitest';
import { nextSort, sortFromQuery } from './sort';

describe('three-state sort', () => {
  it('cycles none, ascending, descending, none', () => {
    const first = nextSort(undefined, 'symbol');
    expect(first).toEqual({ field: 'symbol', type: 1 });
    const second = nextSort(first, 'symbol');
    expect(second).toEqual({ field: 'symbol', type: 2 });
    expect(nextSort(second, 'symbol')).toBeUndefined();
  });
  it('starts ascending on another column', () => {
    expect(nextSort({ field: 'a', type: 2 }, 'b')).toEqual({ field: 'b', type: 1 });
  });
  it('reads only 1 and 2 from the query', () => {
    expect(sortFromQuery('symbol', '2')).toEqual({ field: 'symbol', type: 2 });
    expect(sortFromQuery('symbol', '3')).toBeUndefined();
    expect(sortFromQuery(undefined, '1')).toBeUndefined();
  });
});
