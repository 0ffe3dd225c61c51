import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { ui } from '../../contract/messages';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { startDispatcher } from '../../server/trading/start';
import { executionsOf, tradingCustomer, waitFor, type TradingCustomer } from '../engine/fixtures';
import { personWithToken } from '../helpers/fixtures';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';
import { closePopup } from './typing';

/**
 * Issue 28 items 2 and 3, against the real server, engine and exchange sandbox: the close popup says
 * what the close achieved, and the row and the header counters follow without a reload.
 */
let e2e: E2e;
let dispatcher: Dispatcher;
let adminToken: string;
let page: Page;

beforeAll(async () => {
  e2e = await startE2e({ sandbox: true });
  e2e.sandbox!.control.setPrice('BTCUSDT', 60_000);
  dispatcher = await startDispatcher(e2e.ctx.deps, e2e.ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000 } });
  const admin = await personWithToken(e2e.ctx, AccountType.Admin);
  adminToken = admin.token;
  page = await e2e.newPage();
  await e2e.signIn(page, admin, { landing: /\/admin\/dashboard$/ });
}, 240_000);
afterAll(async () => {
  await dispatcher?.stop();
  await e2e?.close();
});

/** A strategy for one group only, so that each test's order holds its own customers. */
async function strategyFor(id: string, group: CustomerGroup): Promise<string> {
  const strategy = await e2e.ctx.api('POST', '/api/strategy', {
    token: adminToken,
    body: {
      id,
      symbol: 'BTCUSDT',
      groups: [{ group, investAmount: { type: AmountType.Dollar, amount: 100 } }],
      entryDirection: 1,
      leverage: 10,
      positionMode: 1,
      takeProfitType: AmountType.Percent,
      takeProfitMode: 1,
      tp1: { targetLevel: 5, closeVolume: 100 },
      stopLoss: { type: AmountType.Percent, amount: 5 },
      trailingStop: false,
    },
  });
  expect(strategy.status).toBe(200);
  return id;
}

/** Opens a manual long for the strategy's customers and waits until every position is open and protected. */
async function openLong(strategyId: string, customers: TradingCustomer[]): Promise<number> {
  const long = await e2e.ctx.api('POST', `/api/strategy/${strategyId}/long`, { token: adminToken });
  expect(long.status).toBe(200);
  const orderId: number = long.body.data.orderId;
  await waitFor(
    'every position open and protected',
    async () => {
      const rows = await executionsOf(e2e.ctx, orderId);
      return rows.length === customers.length && rows.every((row) => row.state === 'open' && row.protected_at !== null);
    },
    60_000,
  );
  return orderId;
}

async function closeFromTheList(orderId: number): Promise<void> {
  await page.goto('/admin/orders');
  const toggle = page.getByRole('switch', { name: `Close the position of order ${orderId}` });
  await expect.poll(() => toggle.isChecked(), { timeout: 20_000 }).toBe(true);
  await toggle.click();
  await page.getByRole('dialog', { name: 'Close this position?' }).getByRole('button', { name: 'Confirm' }).click();
}

async function count(label: string): Promise<number> {
  const text = (await page.getByTestId(`count-${label}`).textContent()) ?? '';
  return Number(/\((\d+)\)/.exec(text)?.[1] ?? NaN);
}

describe('closing an order from Order & Alert', () => {
  it('says the position closed once every position is closed, and the row and counters follow without a reload', async () => {
    const strategyId = await strategyFor('CLOSEALL', CustomerGroup.Gold);
    const gold = await Promise.all([0, 1].map(() => tradingCustomer(e2e.ctx, e2e.sandbox!, { exchange: 'bitget', group: CustomerGroup.Gold })));
    const orderId = await openLong(strategyId, gold);
    await closeFromTheList(orderId);
    await closePopup(page, ui.strategy.positionClosed);
    const states = (await executionsOf(e2e.ctx, orderId)).map((row) => row.state);
    expect(states).toEqual(['closed', 'closed']);
    const row = page.getByRole('row').filter({ has: page.getByRole('switch', { name: `Close the position of order ${orderId}` }) });
    await expect.poll(async () => row.getByText(/^(Win|Loss)$/).count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByText('0.00 USDT').count()).toBe(0);
    await expect.poll(async () => (await count('Win')) + (await count('Loss')), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('switch', { name: `Close the position of order ${orderId}` }).isChecked()).toBe(false);
    await e2e.screenshot(page, 'close-all-closed');
  });

  it("says how many closed when one customer's close is refused by the exchange (key revoked), and the toggle is on again", async () => {
    const strategyId = await strategyFor('CLOSEPART', CustomerGroup.Occasion);
    const [kept, revoked] = await Promise.all([0, 1].map(() => tradingCustomer(e2e.ctx, e2e.sandbox!, { exchange: 'bitget', group: CustomerGroup.Occasion })));
    const orderId = await openLong(strategyId, [kept!, revoked!]);
    e2e.sandbox!.control.deleteAccount(revoked!.sandbox!.uid);
    await closeFromTheList(orderId);
    await closePopup(page, '1 of 2 closed, the rest still protected');
    expect(await page.getByText(ui.strategy.positionClosed).count()).toBe(0);
    const byCustomer = new Map((await executionsOf(e2e.ctx, orderId)).map((row) => [row.customer_id, row.state]));
    expect([byCustomer.get(kept!.customerId), byCustomer.get(revoked!.customerId)]).toEqual(['closed', 'open']);
    const toggle = page.getByRole('switch', { name: `Close the position of order ${orderId}` });
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(true);
    expect(await toggle.isEnabled()).toBe(true);
    await e2e.screenshot(page, 'close-partly-closed');
  });

  // Waits for the engine fix of the exchange-truth issue (an execution is 'closed' only when the
  // exchange shows zero, 'open' and still protected by its stop otherwise): today a close that the
  // emptied order book (sandbox control.setBook) cannot fill may still be marked closed.
  it.todo('says n of m closed when the order book cannot fill the close (book emptied with control.setBook)');
});

describe('close all from the kill switch card (issue 29)', () => {
  it("an admin closes all of a strategy's positions on its page; the card follows them until all are closed, and the exchange shows them flat", async () => {
    const strategyId = await strategyFor('CLOSEVIP', CustomerGroup.Vip);
    const vip = [
      await tradingCustomer(e2e.ctx, e2e.sandbox!, { exchange: 'bybit', group: CustomerGroup.Vip }),
      await tradingCustomer(e2e.ctx, e2e.sandbox!, { exchange: 'bitget', group: CustomerGroup.Vip }),
    ];
    const orderId = await openLong(strategyId, vip);
    await followLink(page, `/strategy/${strategyId}`);
    const card = page.getByTestId('pause-switch-strategy');
    await card.getByRole('button', { name: 'Close all positions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close all positions' });
    await dialog.getByText(/Close every open position of this strategy at market/).waitFor();
    expect((await executionsOf(e2e.ctx, orderId)).map((row) => row.state)).toEqual(['open', 'open']);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await closePopup(page, 'Closing 2 positions.');
    await card.getByText(/all 2 positions are closed\.$/).waitFor({ timeout: 60_000 });
    for (const customer of vip) expect(e2e.sandbox!.control.account(customer.sandbox!.uid).positions.filter((p) => p.size > 0)).toEqual([]);
    expect((await executionsOf(e2e.ctx, orderId)).map((row) => row.state)).toEqual(['closed', 'closed']);
    await e2e.screenshot(page, 'close-all-strategy');
  });
});
