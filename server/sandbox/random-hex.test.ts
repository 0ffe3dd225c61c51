import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex';

describe('randomHex', () => {
  it('answers the bytes asked for as hex, never the same ones twice, across refills of its pool', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => randomHex(i % 2 === 0 ? 9 : 16));
    expect(ids.every((id, i) => id.length === (i % 2 === 0 ? 18 : 32) && /^[0-9a-f]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => randomHex(5_000)).toThrow(RangeError);
  });
});
