import { roundToStep, type MarketSpec } from './markets';
import type { Side } from './types';

/**
 * A small per-symbol order book around the last price that takers (market orders, marketable limits,
 * triggered exits) fill against, so an entry can fill partially and with slippage as it does live.
 */
export interface BookConfig {
  /** Price levels on each side. */
  levels: number;
  /** Size of each level in USDT, converted into contracts at the last price (unless levelSize is given). */
  levelNotional: number;
  /** Size of each level in contracts (base coin); overrides levelNotional. */
  levelSize?: number;
  /** Best ask minus best bid, as a fraction of the last price (0.0002 = 2 bps). */
  spread: number;
  /** Distance between two levels, as a fraction of the last price. */
  step: number;
  /** Milliseconds for a fully taken level to be back at its full size (linear refill). */
  refillMs: number;
}

export const defaultBook: BookConfig = { levels: 5, levelNotional: 50_000, spread: 0.0002, step: 0.0002, refillMs: 2_000 };

/** Every taker fills completely at the last price: for tests that assert exact fill prices. */
export const deepBook: BookConfig = { levels: 1, levelNotional: 1e12, spread: 0, step: 0, refillMs: 1 };

export interface Sweep {
  /** Quantity taken (a multiple of the market's quantity step), 0 when the book had nothing in reach. */
  qty: number;
  /** Volume-weighted price of what was taken (0 when nothing was). */
  avgPrice: number;
}

export interface Level {
  price: number;
  size: number;
}

/** The book of one symbol on one exchange. Levels follow the last price; what takers took refills over time. */
export class OrderBook {
  /** Share (0..1) of each level taken: `buy` = the asks a buyer takes, `sell` = the bids a seller takes. */
  private readonly taken: Record<Side, number[]>;
  private refilledAt: number;

  constructor(
    private readonly market: MarketSpec,
    readonly config: BookConfig,
    private readonly now: () => number,
  ) {
    this.taken = { buy: new Array<number>(config.levels).fill(0), sell: new Array<number>(config.levels).fill(0) };
    this.refilledAt = now();
  }

  /** The levels a taker on `side` meets, best first, with what is left of each. */
  levels(side: Side, last: number): Level[] {
    this.refill();
    const full = this.levelSize(last);
    return this.taken[side].map((share, index) => ({ price: this.levelPrice(side, index, last), size: this.floorQty(full * (1 - share)) }));
  }

  /** Takes up to `qty` from the levels a taker on `side` meets, none worse than `limit`; answers what was taken. */
  take(side: Side, qty: number, last: number, limit?: number): Sweep {
    const full = this.levelSize(last);
    let rest = qty;
    let cost = 0;
    this.levels(side, last).forEach((level, index) => {
      if (rest <= 0 || level.size <= 0) return;
      if (limit !== undefined && (side === 'buy' ? level.price > limit : level.price < limit)) return;
      const part = Math.min(rest, level.size);
      rest = Number((rest - part).toFixed(10));
      cost += part * level.price;
      this.taken[side][index] = Math.min(1, (this.taken[side][index] ?? 0) + part / full);
    });
    const filled = Number((qty - rest).toFixed(10));
    return { qty: filled, avgPrice: filled > 0 ? cost / filled : 0 };
  }

  private refill(): void {
    const now = this.now();
    const back = this.config.refillMs > 0 ? (now - this.refilledAt) / this.config.refillMs : 1;
    this.refilledAt = now;
    if (back <= 0) return;
    for (const side of ['buy', 'sell'] as const) this.taken[side] = this.taken[side].map((share) => Math.max(0, share - back));
  }

  private levelSize(last: number): number {
    return this.config.levelSize ?? this.config.levelNotional / last;
  }

  private floorQty(qty: number): number {
    const step = this.market.qtyStep;
    return roundToStep(Math.floor(qty / step + 1e-9) * step, step);
  }

  /** Asks round up to the tick, bids down: the spread never rounds to less than it is. */
  private levelPrice(side: Side, index: number, last: number): number {
    const tick = this.market.tickSize;
    const offset = this.config.spread / 2 + index * this.config.step;
    if (offset === 0) return last;
    const raw = side === 'buy' ? last * (1 + offset) : last * (1 - offset);
    const ticks = side === 'buy' ? Math.ceil(raw / tick - 1e-9) : Math.floor(raw / tick + 1e-9);
    return roundToStep(Math.max(ticks, 1) * tick, tick);
  }
}
