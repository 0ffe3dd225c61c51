import { describe, expect, it } from 'vitest';
import { OrderBook } from './book';
import { findMarket } from './markets';

describe('order book levels', () => {
  const market = findMarket('ETHUSDT')!;

  it('refills linearly: half of refillMs brings back half of each level', () => {
    let now = 0;
    const book = new OrderBook(market, { levels: 2, levelNotional: 3000, spread: 0.001, step: 0.001, refillMs: 1000 }, () => now);
    expect(book.levels('buy', 3000)).toEqual([
      { price: 3001.5, size: 1 },
      { price: 3004.5, size: 1 },
    ]);
    expect(book.take('buy', 5, 3000)).toEqual({ qty: 2, avgPrice: 3003 });
    expect(book.take('buy', 1, 3000)).toEqual({ qty: 0, avgPrice: 0 });
    expect(book.levels('sell', 3000)).toEqual([
      { price: 2998.5, size: 1 },
      { price: 2995.5, size: 1 },
    ]);
    now = 500;
    expect(book.levels('buy', 3000).map((level) => level.size)).toEqual([0.5, 0.5]);
    now = 5000;
    expect(book.take('buy', 1.5, 3000, 3001.5)).toEqual({ qty: 1, avgPrice: 3001.5 });
  });

  it('levels follow the mark price and round away from it to the tick; a zero spread quotes the mark', () => {
    const book = new OrderBook(findMarket('XRPUSDT')!, { levels: 1, levelNotional: 600, spread: 0.0001, step: 0, refillMs: 0 }, () => 0);
    expect(book.levels('buy', 0.6)).toEqual([{ price: 0.6001, size: 1000 }]);
    expect(book.levels('sell', 0.6)).toEqual([{ price: 0.5999, size: 1000 }]);
    const flat = new OrderBook(market, { levels: 1, levelNotional: 1e12, spread: 0, step: 0, refillMs: 1 }, () => 0);
    expect(flat.take('sell', 123.45, 3000)).toEqual({ qty: 123.45, avgPrice: 3000 });
  });
});
