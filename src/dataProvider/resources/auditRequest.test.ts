import { describe, expect, it } from 'vitest';
import { auditRequest, auditToday } from './auditRequest';

describe('audit search request', () => {
  it('Today is the date of now + 8 hours', () => {
    expect(auditToday(new Date('2025-01-09T17:00:00Z'))).toBe('2025-01-10');
    expect(auditToday(new Date('2025-01-09T15:59:00Z'))).toBe('2025-01-09');
  });
  it('maps today, month, symbol and exit type', () => {
    expect(auditRequest({ current: 'today', month: '2025-01', symbol: 'BTCUSDT', exitType: '2' }, new Date('2025-01-09T17:00:00Z'))).toEqual({
      query: { startDate: '2025-01-10', endDate: '2025-01-10' },
      filter: [
        { name: 'datetimeInserted', value: '2025-01' },
        { name: 'strategy.symbol', value: 'BTCUSDT' },
        { name: 'exitType', value: 2 },
      ],
    });
  });
  it('a transaction id filters on it; All (0) sends no exit type', () => {
    expect(auditRequest({ current: '41', exitType: '0' }, new Date())).toEqual({ query: {}, filter: [{ name: 'transactionId', value: 41 }] });
  });
});
