import type { EgressBudget } from '../egress-budget';
import { PLANNED_SHARE, WINDOW_SLACK_MS } from '../rate-limiter';

/**
 * Bybit: "Do not establish more than 500 connections within a 5-minute window" per address, for every
 * connection to stream.bybit.com (docs/v5/rate-limit/rate-limit.mdx, "Websocket IP limit"). We plan 95%.
 */
export const NEW_CONNECTION_CEILING = { limit: 500, windowMs: 5 * 60_000 } as const;
/** The shared budget's key for an address's new trade connections, apart from its HTTP requests. */
export const TRADE_CONNECTIONS_SUFFIX = '/trade-connections';

/**
 * New connections each egress address may still open: a sliding window of when each was opened, in this
 * process; with `share`, also counted with every other process on the address (and this one's
 * predecessors) through PostgreSQL.
 */
export class ConnectionBudget {
  private readonly opened = new Map<string, number[]>();
  private shared: EgressBudget | undefined;

  constructor(
    readonly limit: number = Math.floor(NEW_CONNECTION_CEILING.limit * PLANNED_SHARE),
    readonly windowMs: number = NEW_CONNECTION_CEILING.windowMs + WINDOW_SLACK_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Counts this process's new connections in `budget` too (the PostgreSQL egress budget, under the
   * address's name with TRADE_CONNECTIONS_SUFFIX): Bybit counts them per address, whichever process opens them.
   */
  share(budget: EgressBudget | undefined): void {
    this.shared = budget;
  }

  /** Resolves once the shared budget (if any) lets one more connection leave the address: after `take`, before opening. */
  async cleared(address: string, signal?: AbortSignal): Promise<void> {
    await this.shared?.take('bybit', `${address}${TRADE_CONNECTIONS_SUFFIX}`, { limit: this.limit, windowMs: this.windowMs }, signal);
  }

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
