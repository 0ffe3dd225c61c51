import type { WebSocket } from 'ws';
import type { Sandbox, StreamSocketHandle } from '../sandbox';
import type { Account, ExchangeId } from '../types';
import type { StreamScope } from './faults';
import type { StreamListener, Subscription } from './hub';
import { FrameQueue, Outbox } from './outbox';

/** The protocol of one exchange's private socket: handles each client frame once it arrived. */
export interface StreamSession {
  handle(text: string): void;
  /** The socket closed (timers to stop). */
  closed(): void;
}

/**
 * One private WebSocket, whichever exchange: the account it logged in as, its subscriptions (registered with
 * the sandbox's StreamHub while it has any), the simulated network both ways (latency, stream faults), and
 * the control plane's handle (drops). The exchange's session speaks the protocol on top.
 */
export class PrivateSocket implements StreamListener {
  private loggedIn: Account | undefined;
  private readonly channels = new Map<string, Subscription[]>();
  private readonly inbound = new FrameQueue();
  private readonly outbox: Outbox;
  private readonly handle: StreamSocketHandle;
  private session: StreamSession | undefined;
  private listening = false;
  /** Called after every frame written to the client (Bybit's idle cut counts pushes as traffic). */
  onWrite: () => void = () => undefined;

  constructor(
    readonly exchange: ExchangeId,
    readonly sandbox: Sandbox,
    private readonly ws: WebSocket,
    readonly ip: string,
  ) {
    this.outbox = new Outbox(ws, sandbox.streamFaults, () => sandbox.latencyMs, () => this.scope(), () => this.onWrite());
    this.handle = { exchange, account: () => this.loggedIn, drop: () => ws.terminate() };
    sandbox.streamSockets.add(this.handle);
    ws.on('close', () => this.closed());
    ws.on('error', () => ws.terminate());
  }

  /** Starts reading frames; each is handled `latencyMs` after it was read, in order. */
  start(session: StreamSession, onFrame: (text: string) => boolean): void {
    this.session = session;
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (onFrame(text)) this.inbound.add(this.sandbox.latencyMs, () => session.handle(text));
    });
  }

  get account(): Account {
    if (!this.loggedIn) throw new Error('The socket has not logged in');
    return this.loggedIn;
  }

  get authenticated(): Account | undefined {
    return this.loggedIn;
  }

  login(account: Account): void {
    this.loggedIn = account;
  }

  scope(): StreamScope {
    const account = this.loggedIn;
    return { exchange: this.exchange, accountIds: account ? [account.uid, account.apiKey] : [] };
  }

  subscriptions(channel: string): readonly Subscription[] {
    return this.channels.get(channel) ?? [];
  }

  keys(): string[] {
    return [...this.channels.values()].flatMap((list) => list.map((subscription) => subscription.key));
  }

  has(key: string): boolean {
    for (const list of this.channels.values()) if (list.some((subscription) => subscription.key === key)) return true;
    return false;
  }

  count(): number {
    let total = 0;
    for (const list of this.channels.values()) total += list.length;
    return total;
  }

  subscribe(subscription: Subscription): void {
    if (this.has(subscription.key)) return;
    this.channels.set(subscription.channel, [...this.subscriptions(subscription.channel), subscription]);
    if (!this.listening) this.sandbox.streams.listen(this);
    this.listening = true;
  }

  unsubscribe(key: string): void {
    for (const [channel, list] of this.channels) {
      const rest = list.filter((subscription) => subscription.key !== key);
      if (rest.length) this.channels.set(channel, rest);
      else this.channels.delete(channel);
    }
    if (this.channels.size === 0) this.stopListening();
  }

  /** A pushed event (StreamListener). */
  send(frame: string): void {
    this.outbox.push(frame);
  }

  /** An answer to the client's frame. */
  answer(frame: unknown): void {
    this.outbox.answer(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Closes at once without a close frame (a network drop). */
  drop(): void {
    this.ws.terminate();
  }

  /** Closes after what was already written (a ceiling the exchange enforces by closing: its last answer still arrives). */
  close(): void {
    this.ws.close(1008, 'limit');
  }

  private stopListening(): void {
    if (this.listening) this.sandbox.streams.unlisten(this);
    this.listening = false;
  }

  private closed(): void {
    this.stopListening();
    this.channels.clear();
    this.inbound.stop();
    this.outbox.close();
    this.sandbox.streamSockets.delete(this.handle);
    this.session?.closed();
  }
}
