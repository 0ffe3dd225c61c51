import { describe, expect, it } from 'vitest';
import type { AccountEvent } from './account-events';
import { BitgetPushEncoder } from './bitget-ws/frames';
import { BybitPushEncoder } from './bybit-private/frames';
import { deepBook } from './book';
import type { PlaceRequest } from './types';
import { Sandbox } from './sandbox';
import type { Push, StreamEncoder, StreamListener, Subscription } from './streams/hub';
import type { Account } from './types';

/** The real encoder, counting what it is asked for. */
class Counting implements StreamEncoder {
  events = 0;
  built = 0;
  framed = 0;
  constructor(private readonly inner: StreamEncoder) {}
  pushes(account: Account, event: AccountEvent): Push[] {
    this.events += 1;
    return this.inner.pushes(account, event).map((push) => ({ ...push, data: () => ((this.built += 1), push.data()) }));
  }
  frame(push: Push, data: unknown[], subscription: Subscription): string {
    this.framed += 1;
    return this.inner.frame(push, data, subscription);
  }
}

function listener(account: Account, topics: string[]): StreamListener & { frames: Array<Record<string, unknown>> } {
  const frames: Array<Record<string, unknown>> = [];
  return {
    account,
    frames,
    subscriptions: (channel) => topics.filter((topic) => topic.split('.')[0] === channel).map((topic) => ({ channel, key: topic })),
    keys: () => topics,
    send: (frame) => frames.push(JSON.parse(frame) as Record<string, unknown>),
  };
}

const buy = (clientId: string, extra: Partial<PlaceRequest> = {}): PlaceRequest => ({
  symbol: 'BTCUSDT', side: 'buy', type: 'market', qty: 0.01, price: 0, reduceOnly: false, positionIdx: 0, clientId, kind: 'normal', ...extra,
});

function sandboxWith(encoder: (sandbox: Sandbox) => StreamEncoder, exchange: 'bybit' | 'bitget' = 'bybit'): { sandbox: Sandbox; counting: Counting } {
  const sandbox = new Sandbox({ randomWalk: false, book: deepBook, now: () => 1_700_000_000_000 });
  const counting = new Counting(encoder(sandbox));
  sandbox.streams.setEncoder(exchange, counting);
  return { sandbox, counting };
}

describe('StreamHub: the one hook of the account events', () => {
  it('an account nobody listens to costs no encoding at all, whoever else listens', () => {
    const { sandbox, counting } = sandboxWith((s) => new BybitPushEncoder(s));
    const quiet = sandbox.createAccount({ exchange: 'bybit', balance: 10_000 });
    const watched = sandbox.createAccount({ exchange: 'bybit', balance: 10_000 });
    sandbox.streams.listen(listener(watched, ['order']));
    sandbox.engine.place(quiet, buy('q-1'));
    sandbox.prices.set('BTCUSDT', 61_000);
    expect(counting).toMatchObject({ events: 0, built: 0, framed: 0 });
    sandbox.close();
  });

  it('builds each push once and each distinct frame text once, for every socket of the account', () => {
    const { sandbox, counting } = sandboxWith((s) => new BybitPushEncoder(s));
    const account = sandbox.createAccount({ exchange: 'bybit', balance: 10_000 });
    const sockets = [listener(account, ['order']), listener(account, ['order']), listener(account, ['order.linear', 'execution'])];
    for (const socket of sockets) sandbox.streams.listen(socket);
    sandbox.engine.place(account, buy('one-1'));
    // order, execution, position, wallet raised; order and execution subscribed: two pushes built, three frame texts
    expect(counting).toMatchObject({ events: 4, built: 2, framed: 3 });
    expect(sockets.map((socket) => socket.frames.map((frame) => frame.topic))).toEqual([['order'], ['order'], ['order.linear', 'execution']]);
    expect(sockets[0]?.frames[0]?.id).toBe(sockets[1]?.frames[0]?.id);
    sandbox.streams.unlisten(sockets[2] as StreamListener);
    sandbox.engine.place(account, buy('one-2'));
    expect(sockets.map((socket) => socket.frames.length)).toEqual([2, 2, 2]);
    sandbox.close();
  });

  it('an execution of an order labelled liquidation is a BustTrade (Bybit) and comes from SYS (Bitget)', () => {
    const bybit = sandboxWith((s) => new BybitPushEncoder(s));
    const account = bybit.sandbox.createAccount({ exchange: 'bybit', balance: 10_000 });
    const socket = listener(account, ['order', 'execution']);
    bybit.sandbox.streams.listen(socket);
    bybit.sandbox.engine.place(account, buy('liq-1', { labels: { liquidation: '1' } }));
    const [order, execution] = socket.frames.map((frame) => (frame.data as Array<Record<string, unknown>>)[0]);
    expect(order).toMatchObject({ createType: 'CreateByTakeOver_PassThrough', orderStatus: 'Filled' });
    expect(execution).toMatchObject({ execType: 'BustTrade', createType: 'CreateByTakeOver_PassThrough' });
    bybit.sandbox.close();
    const bitget = sandboxWith((s) => new BitgetPushEncoder(s), 'bitget');
    const other = bitget.sandbox.createAccount({ exchange: 'bitget', balance: 10_000 });
    const orders: StreamListener & { frames: Array<Record<string, unknown>> } = { ...listener(other, []), subscriptions: (channel) => (channel === 'orders' ? [{ channel, key: '{}' }] : []) };
    bitget.sandbox.streams.listen(orders);
    bitget.sandbox.engine.place(other, buy('liq-2', { labels: { liquidation: '1' } }));
    expect((orders.frames[0]?.data as Array<Record<string, unknown>>)[0]).toMatchObject({ enterPointSource: 'SYS', status: 'filled' });
    bitget.sandbox.close();
  });

  it('an order the exchange rejects after accepting it: Bybit Rejected with its reason and a position message, Bitget fail_execute', () => {
    const bybit = sandboxWith((s) => new BybitPushEncoder(s));
    const account = bybit.sandbox.createAccount({ exchange: 'bybit', balance: 10_000 });
    const socket = listener(account, ['order', 'position']);
    bybit.sandbox.streams.listen(socket);
    const order = bybit.sandbox.engine.place(account, buy('rej-1', { type: 'limit', price: 50_000 }));
    order.labels.rejectReason = 'EC_PerCancelRequest';
    bybit.sandbox.engine.reject(account, order);
    const pushed = socket.frames.map((frame) => [frame.topic, (frame.data as Array<Record<string, unknown>>)[0]?.orderStatus]);
    expect(pushed).toEqual([['order', 'New'], ['position', undefined], ['order', 'Rejected'], ['position', undefined]]);
    expect((socket.frames[2]?.data as Array<Record<string, unknown>>)[0]).toMatchObject({ rejectReason: 'EC_PerCancelRequest', leavesQty: '0' });
    bybit.sandbox.close();
    const bitget = sandboxWith((s) => new BitgetPushEncoder(s), 'bitget');
    const other = bitget.sandbox.createAccount({ exchange: 'bitget', balance: 10_000 });
    const algo: StreamListener & { frames: Array<Record<string, unknown>> } = { ...listener(other, []), subscriptions: (channel) => (channel === 'orders-algo' ? [{ channel, key: '{}' }] : []) };
    bitget.sandbox.streams.listen(algo);
    const plan = bitget.sandbox.engine.place(other, buy('plan-1', { kind: 'conditional', triggerPrice: 61_000, triggerDirection: 1, labels: { planType: 'normal_plan' } }));
    bitget.sandbox.engine.reject(other, plan);
    expect(algo.frames.map((frame) => (frame.data as Array<Record<string, unknown>>)[0]?.status)).toEqual(['live', 'fail_execute']);
    bitget.sandbox.close();
  });
});
