import { describe, expect, it } from 'vitest';
import { formatMonth } from '../formatDate';
import { monthOptions } from './monthOptions';

describe('month filter options', () => {
  it('runs from the current month back to May 2024, newest first', () => {
    const months = monthOptions(new Date('2025-02-10T00:00:00Z'));
    expect(months[0]).toBe('2025-02');
    expect(months.at(-1)).toBe('2024-05');
    expect(months).toHaveLength(10);
    expect(formatMonth(months[1]!)).toBe('Jan 2025');
  });
});
