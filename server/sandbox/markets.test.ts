import { describe, expect, it } from 'vitest';
import { formatNumber } from './markets';

describe('formatNumber: the decimal text of every REST answer and stream frame', () => {
  it('drops float noise and trailing zeros, never prints an exponent below 1e21 or a negative zero', () => {
    const cases: Array<[number, string]> = [
      [0.1 + 0.2, '0.3'],
      [60000, '60000'],
      [-0.33, '-0.33'],
      [600.33 / (0.01 - 0.01 * 0.00055), '60066.036319976'],
      [1e-11, '0'],
      [-1e-11, '0'],
      [-0, '0'],
      [0.00055, '0.00055'],
      [100_000_000_001, '100000000001'],
      [1e20, '100000000000000000000'],
      [1 / 3, '0.3333333333'],
      [Number.NaN, '0'],
    ];
    expect(cases.map(([value]) => formatNumber(value))).toEqual(cases.map(([, text]) => text));
    expect(formatNumber(1.23456, 2)).toBe('1.23');
  });
});
