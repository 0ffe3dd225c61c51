import { describe, expect, it } from 'vitest';
import { bitgetFillRecord, bitgetFundingRecord, bybitCostRecord, weekWindows } from './exchanges/cost-records';
import type { CostRecord } from './exchanges/types';
import { partOf, positionCosts } from './position-costs';

const trade = (orderId: string, side: CostRecord['side'], sizeChange: number, paid: number, time: number): CostRecord => ({ kind: 'trade', orderId, clientOrderId: '', side, time, paid, sizeChange });
const funding = (side: CostRecord['side'], paid: number, time: number): CostRecord => ({ kind: 'funding', orderId: '', clientOrderId: '', side, time, paid, sizeChange: 0 });
const entry = { exchangeOrderId: 'e2', clientOrderId: 'ours-e' };

describe('positionCosts (LIVE-FIDELITY D12)', () => {
  it("counts from the entry's first fill until the side is flat again: the position before and the one after are not its own", () => {
    const records = [
      trade('e1', 'long', 0.01, 0.33, 1),
      trade('c1', 'long', -0.01, 0.34, 2),
      trade('e2', 'long', 0.006, 0.2, 3),
      trade('e2', 'long', 0.004, 0.13, 3),
      funding('long', 0.6, 4),
      funding('short', 9, 4),
      trade('x', 'short', 1, 9, 5),
      trade('tp1', 'long', -0.005, 0.06, 6),
      trade('c2', 'long', -0.005, 0.17, 7),
      trade('e3', 'long', 0.01, 0.33, 8),
      funding('long', 0.6, 9),
    ];
    expect(positionCosts(records, 'long', entry)).toEqual({ fees: 0.56, funding: 0.6, flat: true, opened: 0.01 });
  });

  it('finds the entry by our client id where the record carries it (Bybit orderLinkId)', () => {
    const records = [{ ...trade('unknown', 'short', 0.01, 0.33, 1), clientOrderId: 'ours-e' }, trade('c', 'short', -0.01, 0.33, 2)];
    expect(positionCosts(records, 'short', { exchangeOrderId: null, clientOrderId: 'ours-e' })).toMatchObject({ fees: 0.66, flat: true });
  });

  it('one-way records without a side: a buy grows a long and a sell a short, funding bills count while it is open', () => {
    const records = [trade('e2', null, -2, 0.5, 1), funding(null, -0.25, 2), trade('c', null, 2, 0.5, 3), funding(null, 0.25, 4)];
    expect(positionCosts(records, 'short', entry)).toEqual({ fees: 1, funding: -0.25, flat: true, opened: 2 });
  });

  it('a position that never comes back to flat in the records says so, and its part is shared out', () => {
    const recorded = positionCosts([trade('e2', 'long', 0.01, 0.3, 1), trade('c', 'long', -0.01, 0.3, 2)], 'long', entry);
    expect(recorded?.flat).toBe(true);
    const shared = positionCosts([trade('e2', 'long', 0.01, 0.3, 1), funding('long', 1, 2), trade('c', 'long', -0.005, 0.1, 3)], 'long', entry)!;
    expect(shared).toEqual({ fees: 0.4, funding: 1, flat: false, opened: 0.01 });
    expect(partOf(shared, 0.25)).toEqual({ fees: 0.1, funding: 0.25 });
  });

  it('null when the entry is not in the records', () => {
    expect(positionCosts([trade('other', 'long', 1, 1, 1)], 'long', entry)).toBeNull();
  });
});

describe('the exchanges’ records as cost records', () => {
  it('Bybit: a closing trade is on the other side of its order; funding keeps the position side', () => {
    const base = { orderId: 'o', orderLinkId: 'l', execTime: '5', execFee: '0.3', execQty: '0.01' };
    expect(bybitCostRecord({ ...base, side: 'Sell', closedSize: '0.01', execType: 'Trade' })).toMatchObject({ kind: 'trade', side: 'long', sizeChange: -0.01, paid: 0.3, clientOrderId: 'l' });
    expect(bybitCostRecord({ ...base, side: 'Sell', closedSize: '0', execType: 'Trade' })).toMatchObject({ side: 'short', sizeChange: 0.01 });
    expect(bybitCostRecord({ ...base, side: 'Buy', closedSize: '0', execType: 'Funding', execFee: '-0.2' })).toMatchObject({ kind: 'funding', side: 'long', paid: -0.2 });
  });

  it('Bitget: tradeSide tells open from close in hedge mode (a long is closed with side buy), side in one-way mode', () => {
    const fee = [{ totalFee: '-0.36' }];
    expect(bitgetFillRecord({ orderId: 'o', side: 'buy', tradeSide: 'close_long', baseVolume: '0.01', feeDetail: fee, cTime: '7' })).toMatchObject({ side: 'long', sizeChange: -0.01, paid: 0.36 });
    expect(bitgetFillRecord({ orderId: 'o', side: 'sell', tradeSide: 'burst_close_short', baseVolume: '0.01', feeDetail: [], cTime: '7' })).toMatchObject({ side: 'short', sizeChange: -0.01, paid: 0 });
    expect(bitgetFillRecord({ orderId: 'o', side: 'sell', tradeSide: 'sell_single', baseVolume: '0.01', feeDetail: fee, cTime: '7' })).toMatchObject({ side: null, sizeChange: -0.01 });
    expect(bitgetFundingRecord({ amount: '-1.2', cTime: '9' })).toMatchObject({ kind: 'funding', side: null, paid: 1.2 });
  });

  it('cuts a span into windows of at most a week', () => {
    const week = 7 * 86_400_000;
    expect(weekWindows(0, 10)).toEqual([{ start: 0, end: 10 }]);
    expect(weekWindows(0, 2 * week)).toEqual([{ start: 0, end: week }, { start: week + 1, end: 2 * week }]);
  });
});
