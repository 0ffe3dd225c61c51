import { describe, expect, it } from 'vitest';
import type { PlaceRequest } from './types';
import { EngineError } from './engine-error';
import { marginSummary } from './margin';
import { deepBook } from './book';
import { Sandbox } from './sandbox';

function setup(exchange: 'bybit' | 'bitget' = 'bybit', positionMode: 'oneway' | 'hedge' = 'oneway') {
  const sandbox = new Sandbox({ randomWalk: false, now: () => 1_700_000_000_000, book: deepBook });
  const account = sandbox.createAccount({ exchange, balance: 10_000, positionMode });
  const place = (request: Partial<PlaceRequest> & Pick<PlaceRequest, 'side' | 'qty'>) =>
    sandbox.engine.place(account, { symbol: 'ETHUSDT', type: 'market', price: 0, reduceOnly: false, positionIdx: 0, clientId: '', kind: 'normal', ...request });
  const position = (idx: 0 | 1 | 2 = 0) => sandbox.engine.slot(account, 'ETHUSDT', idx);
  const wallet = () => account.balances.get('USDT') ?? 0;
  return { sandbox, account, place, position, wallet };
}

const fee = (qty: number, price: number, rate = 0.00055) => qty * price * rate;

describe('engine: fills, PnL and triggers', () => {
  it('a short stop-loss fires when the price rises to it, realising the loss and both fees', () => {
    const { sandbox, place, position, wallet } = setup();
    place({ side: 'sell', qty: 1, stopLoss: 3100, takeProfit: 2800 });
    expect(position()).toMatchObject({ side: 'short', size: 1, entryPrice: 3000, stopLoss: 3100, takeProfit: 2800 });
    sandbox.prices.set('ETHUSDT', 3099.99);
    expect(position().size).toBe(1);
    sandbox.prices.set('ETHUSDT', 3120);
    expect(position()).toMatchObject({ side: null, size: 0, stopLoss: 0, takeProfit: 0 });
    expect(wallet()).toBeCloseTo(10_000 - 120 - fee(1, 3000) - fee(1, 3120), 9);
  });

  it('hedge mode keeps a long and a short on the same symbol with their own PnL', () => {
    const { sandbox, account, place, position, wallet } = setup('bybit', 'hedge');
    place({ side: 'buy', qty: 2, positionIdx: 1 });
    place({ side: 'sell', qty: 1, positionIdx: 2 });
    sandbox.prices.set('ETHUSDT', 3100);
    const summary = marginSummary(account, (symbol) => sandbox.prices.get(symbol));
    expect(summary.unrealised).toBeCloseTo(200 - 100, 9);
    place({ side: 'sell', qty: 5, positionIdx: 1 });
    expect(position(1)).toMatchObject({ side: null, size: 0 });
    expect(position(2)).toMatchObject({ side: 'short', size: 1 });
    expect(wallet()).toBeCloseTo(10_000 + 200 - fee(2, 3000) - fee(1, 3000) - fee(2, 3100), 9);
    expect(() => place({ side: 'buy', qty: 1, positionIdx: 0 })).toThrow(EngineError);
  });

  it('a resting limit fills at its own price with the maker fee; a reduce-only leg shrinks when the position did', () => {
    const { sandbox, account, place, position, wallet } = setup();
    const entry = place({ side: 'buy', qty: 2, type: 'limit', price: 2950 });
    expect(entry.status).toBe('new');
    expect(marginSummary(account, (s) => sandbox.prices.get(s)).orderIM).toBeCloseTo(590, 9);
    sandbox.prices.set('ETHUSDT', 2940);
    expect(entry).toMatchObject({ status: 'filled', avgPrice: 2950 });
    expect(wallet()).toBeCloseTo(10_000 - 2 * 2950 * 0.0002, 9);
    const leg = place({ side: 'sell', qty: 2, type: 'limit', price: 3050, reduceOnly: true });
    place({ side: 'sell', qty: 1.5, reduceOnly: true });
    sandbox.prices.set('ETHUSDT', 3060);
    expect(leg).toMatchObject({ status: 'filled', qty: 0.5, filledQty: 0.5, avgPrice: 3050 });
    expect(position().size).toBe(0);
  });

  it('a trailing stop by percentage protects a short: activation below, stop above the lowest price', () => {
    const { sandbox, place, position } = setup('bitget');
    place({ side: 'sell', qty: 1 });
    const trail = place({ side: 'buy', qty: 1, kind: 'trailing', reduceOnly: true, trailing: { ratio: 2, activation: 2900 } });
    for (const price of [2950, 2900, 2800, 2850]) sandbox.prices.set('ETHUSDT', price);
    expect(trail.status).toBe('untriggered');
    sandbox.prices.set('ETHUSDT', 2856);
    expect(trail).toMatchObject({ status: 'filled', avgPrice: 2856 });
    expect(position().size).toBe(0);
  });

  it('refuses with the engine kinds the exchanges map to their codes', () => {
    const { place } = setup();
    const kind = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        return (error as EngineError).kind;
      }
      return 'accepted';
    };
    expect(kind(() => place({ side: 'buy', qty: 0.005 }))).toBe('minQty');
    expect(kind(() => place({ side: 'buy', qty: 0.015 }))).toBe('qtyStep');
    expect(kind(() => place({ side: 'buy', qty: 100 }))).toBe('insufficientBalance');
    expect(kind(() => place({ side: 'sell', qty: 1, reduceOnly: true }))).toBe('reduceOnlyNoPosition');
    expect(kind(() => place({ side: 'buy', qty: 0.01, clientId: 'a' }))).toBe('accepted');
    expect(kind(() => place({ side: 'buy', qty: 0.01, clientId: 'a' }))).toBe('duplicateClientId');
    expect(kind(() => place({ symbol: 'LTCUSDT', side: 'buy', qty: 1 }))).toBe('unknownSymbol');
  });
});
