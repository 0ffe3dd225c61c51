import { describe, expect, it } from 'vitest';
import { AmountType } from '../../contract/enums';
import type { MarketInfo } from './exchanges/types';
import { backoffMs } from './execution-state/queue';
import { largestQuantity, priceAway, roundDownToStep, sizeEntry, splitTakeProfit } from './sizing';

const btc: MarketInfo = { symbol: 'BTCUSDT', ccxtSymbol: 'BTC/USDT:USDT', minQty: 0.001, qtyStep: 0.001, tickSize: 0.1, minNotional: 5, maxLeverage: 100, maxMarketQty: 119 };
const xrp: MarketInfo = { symbol: 'XRPUSDT', ccxtSymbol: 'XRP/USDT:USDT', minQty: 1, qtyStep: 1, tickSize: 0.0001, minNotional: 5, maxLeverage: 75, maxMarketQty: 1_000_000 };

describe('sizing', () => {
  it('rounds down to the step without floating-point drift', () => {
    expect(roundDownToStep(0.3, 0.1)).toBe(0.3);
    expect(roundDownToStep(0.016666, 0.001)).toBe(0.016);
    expect(roundDownToStep(1666.9, 1)).toBe(1666);
    expect(roundDownToStep(0.02999, 0.01)).toBe(0.02);
    expect(roundDownToStep(0.1 + 0.2, 0.1)).toBe(0.3);
  });

  it('$ is margin: amount x leverage / price, rounded down; Quantity is base quantity', () => {
    expect(sizeEntry({ investType: AmountType.Dollar, investAmount: 100, leverage: 10, price: 60000, market: btc })).toEqual({ ok: true, quantity: 0.016 });
    expect(sizeEntry({ investType: AmountType.Dollar, investAmount: 100, leverage: 10, price: 0.6, market: xrp })).toEqual({ ok: true, quantity: 1666 });
    expect(sizeEntry({ investType: AmountType.Quantity, investAmount: 0.0059, leverage: 10, price: 60000, market: btc })).toEqual({ ok: true, quantity: 0.005 });
  });

  it('below the minimum quantity or value is refused with a reason', () => {
    expect(sizeEntry({ investType: AmountType.Dollar, investAmount: 5, leverage: 1, price: 60000, market: btc })).toEqual({
      ok: false,
      reason: 'Order size 0 BTCUSDT is below the exchange minimum of 0.001 (invest 5 USDT, leverage 1, price 60000)',
    });
    expect(sizeEntry({ investType: AmountType.Quantity, investAmount: 5, leverage: 1, price: 0.6, market: xrp })).toEqual({
      ok: false,
      reason: 'Order value 3.00 USDT is below the exchange minimum of 5 USDT for XRPUSDT',
    });
  });

  it('caps at the largest market order and at the highest risk tier allowing the leverage (D8)', () => {
    const tiers = [{ maxValue: 2_000_000, maxLeverage: 100, maintenanceRate: 0.005 }, { maxValue: 10_000_000, maxLeverage: 50, maintenanceRate: 0.01 }];
    expect(sizeEntry({ investType: AmountType.Quantity, investAmount: 120, leverage: 10, price: 60000, market: btc, tiers })).toEqual({ ok: true, quantity: 119 });
    expect(sizeEntry({ investType: AmountType.Dollar, investAmount: 50_000, leverage: 100, price: 60000, market: btc, tiers })).toEqual({ ok: true, quantity: 33.333 });
    expect(largestQuantity(btc, tiers, 100_000, 50)).toBe(100);
    expect(largestQuantity(btc, [], 60000, 100)).toBe(119);
    expect(sizeEntry({ investType: AmountType.Quantity, investAmount: 1, leverage: 125, price: 60000, market: btc, tiers })).toEqual({
      ok: false,
      reason: 'Leverage 125 is above what the exchange allows for any position on BTCUSDT',
    });
  });

  it('TP/SL prices are distances from the fill, on the right side for long and short, on the tick', () => {
    expect(priceAway(60000, 'long', 600, 'profit', 0.1)).toBe(60600);
    expect(priceAway(60000, 'short', 600, 'profit', 0.1)).toBe(59400);
    expect(priceAway(60000, 'long', 1234.567, 'loss', 0.1)).toBe(58765.4);
    expect(priceAway(0.6, 'short', 0.0123456, 'loss', 0.0001)).toBe(0.6123);
  });

  it('splits take profit: Full is 100%, Partial TP1/TP2 volumes and TP3 the rest; tiny legs merge', () => {
    expect(splitTakeProfit(0.016, 'full', [100, 0], btc)).toEqual([0.016]);
    expect(splitTakeProfit(0.016, 'partial', [50, 30], btc)).toEqual([0.008, 0.004, 0.004]);
    expect(splitTakeProfit(0.002, 'partial', [30, 30], btc)).toEqual([0, 0, 0.002]);
    expect(splitTakeProfit(10, 'partial', [50, 45], xrp)).toEqual([5, 4, 1]);
    expect(splitTakeProfit(3, 'partial', [20, 20], xrp)).toEqual([0, 0, 3]);
  });

  it('backs off from 200 ms doubling to at most 2 s (plus jitter)', () => {
    expect([1, 2, 3, 4, 5, 9].map((attempt) => backoffMs(attempt, () => 0))).toEqual([200, 400, 800, 1600, 2000, 2000]);
    expect(backoffMs(1, () => 1)).toBe(240);
  });
});
