import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bybitClient } from './test-support';

/**
 * D4: "If the margin is insufficient after the conditional order is triggered, the order will be cancelled";
 * closeOnTrigger "can be used to ensure your stop loss reduces your position regardless of current available
 * margin" (docs/v5/order/create-order.mdx).
 */
const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  ahead = 0;
  sandbox.control.reset();
});

async function stopped(balance: number, closeOnTrigger: boolean) {
  const creds = sandbox.control.createAccount({ exchange: 'bybit', balance });
  const ex = bybitClient(sandbox.url, creds);
  await ex.createOrder(S, 'market', 'buy', 0.1);
  await ex.createOrder(S, 'market', 'sell', 0.1, undefined, { stopLossPrice: 59_000, reduceOnly: true, clientOrderId: 'stop', ...(closeOnTrigger ? { closeOnTrigger: true } : {}) });
  const stop = async () => (await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'stop', acknowledged: true })).info;
  return { creds, ex, stop };
}

describe('Bybit conditional orders and the margin at trigger', () => {
  it('a stop without closeOnTrigger is cancelled when it triggers with the margin short (control marginShort); the position stays open', async () => {
    const { creds, stop } = await stopped(10_000, false);
    expect(await stop()).toMatchObject({ orderStatus: 'Untriggered', closeOnTrigger: false, reduceOnly: true });
    expect(sandbox.control.updateAccount(creds.uid, { marginShort: true }).marginShort).toBe(true);
    sandbox.control.setPrice('BTCUSDT', 58_900);
    expect(await stop()).toMatchObject({ orderStatus: 'Cancelled', cumExecQty: '0' });
    expect(sandbox.control.account(creds.uid).positions[0]).toMatchObject({ side: 'long', size: 0.1 });
  });

  it('the same stop with closeOnTrigger reduces the position whatever the margin, cancelling the symbol\'s opening orders to free margin', async () => {
    const { creds, ex, stop } = await stopped(10_000, true);
    await ex.createOrder(S, 'limit', 'buy', 0.1, 50_000, { clientOrderId: 'dip-buy' });
    sandbox.control.updateAccount(creds.uid, { marginShort: true });
    sandbox.control.setPrice('BTCUSDT', 58_900);
    expect(await stop()).toMatchObject({ orderStatus: 'Filled', closeOnTrigger: true, cumExecQty: '0.1', avgPrice: '58900' });
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);
    expect((await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'dip-buy', acknowledged: true })).info).toMatchObject({ orderStatus: 'Cancelled' });
  });

  it('a loss eats the available margin (equity 546.7 against 600 initial margin): the plain stop is cancelled, the closeOnTrigger one closes', async () => {
    const plain = await stopped(650, false);
    sandbox.control.setPrice('BTCUSDT', 59_000);
    expect(await plain.stop()).toMatchObject({ orderStatus: 'Cancelled' });
    expect(sandbox.control.account(plain.creds.uid).positions[0]).toMatchObject({ size: 0.1, liquidationPrice: 53_833 });
    sandbox.control.setPrice('BTCUSDT', 60_000);
    const guarded = await stopped(650, true);
    sandbox.control.setPrice('BTCUSDT', 59_000);
    expect(await guarded.stop()).toMatchObject({ orderStatus: 'Filled', cumExecQty: '0.1' });
    expect(sandbox.control.account(guarded.creds.uid).positions).toEqual([]);
  });
});
