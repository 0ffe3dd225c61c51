import type { Account, Position } from './types';

/** Bybit fundingInterval 480 minutes, Bitget fundInterval 8 hours. */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/** The rate every symbol starts with (0.01 % per interval, the exchanges' usual floor). */
export const DEFAULT_FUNDING_RATE = 0.0001;

export interface FundingDeps {
  accounts(): Iterable<Account>;
  mark(symbol: string): number;
  /** Books one position's settlement (Engine.settleFunding: wallet, record, private-stream pushes). */
  settle(account: Account, position: Position, paid: number, rate: number, time: number): void;
}

/**
 * Funding of perpetual positions: at the end of every interval each open position pays its value at the mark
 * price times the symbol's rate, a long when the rate is positive, a short when it is negative; the other side
 * receives it. Booked by the engine (Engine.settleFunding): the ledger, the account's funding records (Bybit
 * execution/list execType Funding, Bitget bill contract_settle_fee) and the private streams. The exchanges settle at 00:00, 08:00 and 16:00 UTC; the
 * sandbox counts its intervals from its start (and from each change of the interval), so a test that does not
 * move its clock by a whole interval never sees a settlement, whatever the time of day it runs at.
 */
export class Funding {
  private readonly rates = new Map<string, number>();
  private nextAt: number;

  constructor(
    private readonly deps: FundingDeps,
    private intervalMs: number,
    now: number,
  ) {
    this.nextAt = now + intervalMs;
  }

  rate(symbol: string): number {
    return this.rates.get(symbol) ?? this.rates.get('*') ?? DEFAULT_FUNDING_RATE;
  }

  /** When the next settlement falls due (ms epoch). */
  next(): number {
    return this.nextAt;
  }

  interval(): number {
    return this.intervalMs;
  }

  /** Changes the rate of one symbol (or resets them all) and the interval; the next settlement is the next boundary of the new interval. */
  configure(update: { rate?: number; symbol?: string; intervalMs?: number }, now: number): void {
    if (update.rate !== undefined) {
      if (!Number.isFinite(update.rate) || Math.abs(update.rate) >= 0.1) throw new Error('funding rate must be a fraction between -0.1 and 0.1');
      if (update.symbol) this.rates.set(update.symbol, update.rate);
      else {
        this.rates.clear();
        this.rates.set('*', update.rate);
      }
    }
    if (update.intervalMs !== undefined) {
      if (!Number.isInteger(update.intervalMs) || update.intervalMs < 1) throw new Error('funding intervalMs must be a positive integer');
      this.intervalMs = update.intervalMs;
      this.nextAt = now + update.intervalMs;
    }
  }

  reset(intervalMs: number, now: number): void {
    this.rates.clear();
    this.intervalMs = intervalMs;
    this.nextAt = now + intervalMs;
  }

  /** Settles every boundary passed by `now` (one settlement per boundary); answers how many. */
  settleDue(now: number): number {
    let settled = 0;
    while (now >= this.nextAt) {
      this.settle(this.nextAt);
      this.nextAt += this.intervalMs;
      settled += 1;
    }
    return settled;
  }

  /** One settlement at `time` for every open position of every account; answers how many positions paid or received. */
  settle(time: number): number {
    let count = 0;
    for (const account of this.deps.accounts()) {
      for (const position of account.positions.values()) {
        if (!position.side || position.size <= 0) continue;
        const mark = this.deps.mark(position.symbol);
        const rate = this.rate(position.symbol);
        const paid = position.size * mark * rate * (position.side === 'long' ? 1 : -1);
        this.deps.settle(account, position, paid, rate, time);
        count += 1;
      }
    }
    return count;
  }
}
