import { PLANNED_SHARE, WINDOW_SLACK_MS } from '../rate-limiter';

/**
 * Bybit: "Do not establish more than 500 connections within a 5-minute window" per address, for every
 * connection to stream.bybit.com (docs/v5/rate-limit/rate-limit.mdx, "Websocket IP limit"). We plan 95%.
 */
export const NEW_CONNECTION_CEILING = { limit: 500, windowMs: 5 * 60_000 } as const;

/** New connections each egress address may still open: a sliding window of when each was opened. */
export class ConnectionBudget {
  private readonly opened = new Map<string, number[]>();

  constructor(
    readonly limit: number = Math.floor(NEW_CONNECTION_CEILING.limit * PLANNED_SHARE),
    readonly windowMs: number = NEW_CONNECTION_CEILING.windowMs + WINDOW_SLACK_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Takes one new connection from the address's budget; false when it is spent (see `waitMs`). */
  take(address: string): boolean {
    const times = this.recent(address);
    if (times.length >= this.limit) return false;
    times.push(this.now());
    return true;
  }

  /** How long until the address may open one more connection (0: now). */
  waitMs(address: string): number {
    const times = this.recent(address);
    if (times.length < this.limit) return 0;
    return Math.max(1, (times[0] ?? 0) + this.windowMs - this.now());
  }

  /** Connections the address may still open in the current window. */
  left(address: string): number {
    return Math.max(0, this.limit - this.recent(address).length);
  }

  private recent(address: string): number[] {
    let times = this.opened.get(address);
    if (!times) {
      times = [];
      this.opened.set(address, times);
    }
    const cutoff = this.now() - this.windowMs;
    let expired = 0;
    while (expired < times.length && (times[expired] ?? 0) <= cutoff) expired += 1;
    if (expired > 0) times.splice(0, expired);
    return times;
  }
}

/** The budget every Bybit session manager of this process shares (one per process and address). */
export const sharedConnectionBudget = new ConnectionBudget();
