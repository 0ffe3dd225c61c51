import type { Credentials } from '../types';
import { KeptSockets, type KeptStats } from '../kept-sockets';
import { sharedConnectionBudget, type ConnectionBudget } from './connection-budget';
import type { ExchangeClock } from './exchange-clock';
import { TradeAuthRefused, TradeSocket } from './trade-socket';

export interface TradeSessionsOptions {
  /** wss://stream.bybit.com/v5/trade (live), the testnet's, or the sandbox's ws://.../v5/trade. */
  url: string;
  /** The egress address's name: the key of the new-connection budget. */
  egress: string;
  /** Bind new connections to this local address (a host with several egress addresses). */
  localAddress?: string | undefined;
  budget?: ConnectionBudget | undefined;
  pingIntervalMs?: number | undefined;
  connectTimeoutMs?: number | undefined;
  /** Connections being opened at once (a warm-up of thousands is spread, not a thundering herd). */
  openConcurrency?: number | undefined;
  /** Reopening delays: doubled per failure from minMs up to maxMs (a refused key starts at maxMs). */
  backoff?: { minMs: number; maxMs: number } | undefined;
  /** Learns the exchange's time from the sessions' pongs (the order entry's clock). */
  clock?: ExchangeClock | undefined;
}

export type SessionStats = KeptStats;

export const TRADE_PING_INTERVAL_MS = 20_000;

/**
 * One authenticated Bybit /v5/trade session per account, opened ahead of alerts (`warm`) and kept open:
 * pinged, and reopened after a drop with backoff, never faster than the address's new-connection budget
 * allows (500 per 5 minutes). Accounts whose session is not open meanwhile trade over REST.
 */
export class BybitTradeSessions {
  private readonly kept: KeptSockets<TradeSocket>;

  constructor(options: TradeSessionsOptions) {
    this.kept = new KeptSockets<TradeSocket>({
      egress: options.egress,
      budget: options.budget ?? sharedConnectionBudget,
      openConcurrency: options.openConcurrency,
      backoff: options.backoff,
      refused: (error) => error instanceof TradeAuthRefused,
      open: (credentials) =>
        TradeSocket.open({
          url: options.url,
          apiKey: credentials.apiKey,
          secret: credentials.secret,
          localAddress: options.localAddress,
          pingIntervalMs: options.pingIntervalMs ?? TRADE_PING_INTERVAL_MS,
          connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
          clock: options.clock,
        }),
    });
  }

  /**
   * Opens a session for each account that has none (a changed secret replaces the old one). Resolves
   * once each has had its first attempt: open, or waiting for the budget or a backoff (it opens later).
   */
  warm(accounts: readonly Credentials[]): Promise<SessionStats> {
    return this.kept.warm(accounts.map((a) => ({ apiKey: a.apiKey, secret: a.secret })));
  }

  /** The account's open session, if it has one now. */
  ready(credentials: Credentials): TradeSocket | undefined {
    return this.kept.ready(credentials);
  }

  /** Closes the sessions of these accounts (all when none given); they are not reopened. */
  close(accounts?: readonly Credentials[]): void {
    this.kept.close(accounts);
  }

  stats(): SessionStats {
    return this.kept.stats();
  }
}
