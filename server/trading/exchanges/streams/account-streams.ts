import type { ConnectionBudget } from '../bybit-ws/connection-budget';
import { KeptSockets, type KeptStats } from '../kept-sockets';
import type { Credentials, Position } from '../types';
import type { AccountEvent } from './account-events';
import { AccountView, type ViewChanges } from './account-view';
import type { PrivateSocket } from './private-socket';

/** What a stream tells the engine: changes pushed, the view answering again after a catch-up, or the stream lost. */
/** `first`: the account's first catch-up since it became warm (nothing pushed was missed: its executions were read over REST until then). */
export type StreamNews = { kind: 'changes'; changes: ViewChanges } | { kind: 'caught-up'; first: boolean } | { kind: 'lost' };
export type StreamListener = (credentials: Credentials, news: StreamNews) => void;

export interface AccountStreamsOptions {
  /** Opens, logs in and subscribes one account's private stream. */
  open(credentials: Credentials, onEvents: (events: AccountEvent[]) => void): Promise<PrivateSocket>;
  /** Whether a failure to open means the exchange refused the key. */
  refused(error: unknown): boolean;
  /** Every open position of the account over REST: the catch-up after each (re)connection. */
  readPositions(credentials: Credentials): Promise<Position[]>;
  egress: string;
  /** New connections per address (Bybit: shared with the trade sessions). */
  budget?: ConnectionBudget | undefined;
  /** Streams open at once at most (Bitget: 100 connections per address); the other accounts are read over REST. */
  maxStreams?: number | undefined;
  backoff?: { minMs: number; maxMs: number } | undefined;
  /** Delay before a failed catch-up read is tried again (doubled each time, up to 30 s). */
  catchUpRetryMs?: number | undefined;
}

const CATCH_UP_RETRY_MAX_MS = 30_000;

/**
 * The private streams of the accounts an adapter keeps warm, each with the view it keeps: events are
 * applied to the view and handed to the listeners (the engine wakes what they concern); after each
 * (re)connection the positions are read over REST once, and only then does the view answer reads.
 */
export class AccountStreams {
  private readonly views = new Map<string, AccountView>();
  private readonly listeners: StreamListener[] = [];
  private readonly kept: KeptSockets<PrivateSocket>;

  constructor(private readonly options: AccountStreamsOptions) {
    this.kept = new KeptSockets<PrivateSocket>({
      egress: options.egress,
      budget: options.budget,
      backoff: options.backoff,
      refused: options.refused,
      open: (credentials) => {
        // Events of this connection are kept from its first frame; positions wait for the catch-up read.
        this.viewOf(credentials).catchUp();
        return options.open(credentials, (events) => this.received(credentials, events));
      },
      opened: (credentials, socket) => void this.catchUp(credentials, socket, options.catchUpRetryMs ?? 1_000),
      lost: (credentials) => {
        this.views.get(credentials.apiKey)?.lost();
        this.tell(credentials, { kind: 'lost' });
      },
    });
  }

  /** Opens a stream for each account that has none, up to `maxStreams`; resolves once each had its first attempt. */
  warm(accounts: readonly Credentials[]): Promise<KeptStats> {
    const room = (this.options.maxStreams ?? Infinity) - this.kept.stats().wanted;
    const fresh = accounts.filter((account) => !this.kept.has(account));
    const chosen = [...accounts.filter((account) => this.kept.has(account)), ...fresh.slice(0, Math.max(0, room))];
    for (const account of chosen) this.viewOf(account);
    return this.kept.warm(chosen);
  }

  /** Closes the streams of these accounts (all when none given). */
  close(accounts?: readonly Credentials[]): void {
    this.kept.close(accounts);
    if (!accounts) this.views.clear();
    else for (const account of accounts) this.views.delete(account.apiKey);
  }

  /** The account's view, when it has a stream (it answers only once synced). */
  view(credentials: Credentials): AccountView | undefined {
    return this.views.get(credentials.apiKey);
  }

  onNews(listener: StreamListener): void {
    this.listeners.push(listener);
  }

  stats(): KeptStats & { synced: number } {
    let synced = 0;
    for (const view of this.views.values()) if (view.isSynced) synced += 1;
    return { ...this.kept.stats(), synced };
  }

  private viewOf(credentials: Credentials): AccountView {
    let view = this.views.get(credentials.apiKey);
    if (!view) {
      view = new AccountView();
      this.views.set(credentials.apiKey, view);
    }
    return view;
  }

  private received(credentials: Credentials, events: AccountEvent[]): void {
    const view = this.views.get(credentials.apiKey);
    if (!view) return;
    const changes = view.apply(events, Date.now());
    if (changes.orders.length > 0 || changes.fills.length > 0 || changes.positions.length > 0) this.tell(credentials, { kind: 'changes', changes });
  }

  /** Reads the positions once the stream is subscribed (retried while the stream stays up), then lets the view answer. */
  private async catchUp(credentials: Credentials, socket: PrivateSocket, retryMs: number): Promise<void> {
    const view = this.views.get(credentials.apiKey);
    if (!view || !socket.isOpen) return;
    try {
      const positions = await this.options.readPositions({ ...credentials, background: true });
      if (!socket.isOpen || this.views.get(credentials.apiKey) !== view) return;
      const first = !view.everSynced;
      view.caughtUp(positions, Date.now());
      this.tell(credentials, { kind: 'caught-up', first });
    } catch {
      const timer = setTimeout(() => void this.catchUp(credentials, socket, Math.min(CATCH_UP_RETRY_MAX_MS, retryMs * 2)), retryMs);
      timer.unref();
    }
  }

  private tell(credentials: Credentials, news: StreamNews): void {
    for (const listener of this.listeners) listener(credentials, news);
  }
}
