import type { AccountEvent, AccountEvents } from '../account-events';
import type { Account, ExchangeId } from '../types';

/** One push an event makes: its channel (Bybit topic, Bitget channel) and the frame's data, built at most once. */
export interface Push {
  channel: string;
  /** The symbol it is about (subscriptions to one symbol only get its pushes). */
  symbol?: string;
  /** When the event happened (ms): Bybit `creationTime`, Bitget `ts`. */
  time: number;
  /** Bybit's message id. */
  id?: string;
  data(): unknown[];
}

/** What a socket subscribed to: `key` tells apart subscriptions whose frames differ (Bybit topic, Bitget arg). */
export interface Subscription {
  channel: string;
  key: string;
  /** Only pushes about this symbol (Bitget `instId` other than `default`). */
  symbol?: string;
}

/** Turns account events into one exchange's pushes and frames. */
export interface StreamEncoder {
  /** The pushes of one event, in the order they are sent. Reads the live state at once. */
  pushes(account: Account, event: AccountEvent): Push[];
  /** The text of one push for one subscription. */
  frame(push: Push, data: unknown[], subscription: Subscription): string;
}

/** A socket that listens to one account. */
export interface StreamListener {
  readonly account: Account;
  subscriptions(channel: string): readonly Subscription[];
  /** Every subscription's key (the control plane lists them). */
  keys(): string[];
  send(frame: string): void;
}

/**
 * Fans the engine's account events out to the private sockets subscribed to that account. An account
 * nobody listens to costs one map lookup; otherwise each push's data is built once and each distinct frame
 * text once, then handed to every subscribed socket (O(subscribers of the account)).
 */
export class StreamHub implements AccountEvents {
  private readonly listeners = new Map<string, Set<StreamListener>>();
  private readonly encoders = new Map<ExchangeId, StreamEncoder>();

  setEncoder(exchange: ExchangeId, encoder: StreamEncoder): void {
    this.encoders.set(exchange, encoder);
  }

  listen(listener: StreamListener): void {
    const uid = listener.account.uid;
    let set = this.listeners.get(uid);
    if (!set) {
      set = new Set();
      this.listeners.set(uid, set);
    }
    set.add(listener);
  }

  unlisten(listener: StreamListener): void {
    const uid = listener.account.uid;
    const set = this.listeners.get(uid);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(uid);
  }

  /** The subscriptions of every socket listening to the account (Bybit topics, Bitget args as JSON), sorted. */
  subscriptionsOf(uid: string): string[] {
    return [...(this.listeners.get(uid) ?? [])].flatMap((listener) => listener.keys()).sort();
  }

  clear(): void {
    this.listeners.clear();
  }

  emit(account: Account, event: AccountEvent): void {
    const listeners = this.listeners.get(account.uid);
    if (!listeners) return;
    const encoder = this.encoders.get(account.exchange);
    if (!encoder) return;
    for (const push of encoder.pushes(account, event)) this.deliver(encoder, push, listeners);
  }

  private deliver(encoder: StreamEncoder, push: Push, listeners: Set<StreamListener>): void {
    let data: unknown[] | undefined;
    const frames = new Map<string, string>();
    for (const listener of listeners) {
      for (const subscription of listener.subscriptions(push.channel)) {
        if (subscription.symbol && subscription.symbol !== push.symbol) continue;
        data ??= push.data();
        let frame = frames.get(subscription.key);
        if (frame === undefined) {
          frame = encoder.frame(push, data, subscription);
          frames.set(subscription.key, frame);
        }
        listener.send(frame);
      }
    }
  }
}
