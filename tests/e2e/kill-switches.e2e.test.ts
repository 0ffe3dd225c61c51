import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerGuardsMessages, strategyGuardsMessages } from '../../contract/api/guards';
import { AccountType, CustomerGroup, Exchange } from '../../contract/enums';
import { findWebhookStrategy } from '../../server/trading/intake';
import { PAUSE_SKIP_MESSAGES } from '../../server/trading/pauses';
import { goldStrategy } from '../engine/fixtures';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => e2e?.close());

const card = (page: Page, scope: 'strategy' | 'customer' | 'platform') => page.getByTestId(`pause-switch-${scope}`);

/** The result popup a switch answers with ('Paused.' / 'Resumed.'), closed as a person does. */
async function closeResult(page: Page, text: 'Paused.' | 'Resumed.') {
  const popup = page.getByRole('dialog').filter({ hasText: text });
  await popup.getByRole('button', { name: 'Closed' }).click();
  await popup.waitFor({ state: 'detached' });
}

describe('kill switches in the back office', () => {
  it('an admin pauses a strategy on its page (click, confirm); its next alert is answered and skipped', async () => {
    const strategy = await goldStrategy(e2e.ctx);
    const { page } = await e2e.signedInPage(AccountType.Admin, { at: `/strategy/${strategy.id}` });
    const box = card(page, 'strategy');
    await box.getByText('Running').waitFor();
    await box.getByRole('button', { name: 'Pause strategy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause strategy' });
    await dialog.getByText('Its entry alerts will place no orders until it is resumed.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await closeResult(page, 'Paused.');
    await box.getByText(/^Paused since /).waitFor();
    await box.getByRole('button', { name: 'Resume strategy' }).waitFor();
    await e2e.screenshot(page, 'kill-switch-strategy-paused');

    const alert = await e2e.ctx.api('POST', strategy.url, { payload: '{"action":"open"}', headers: { 'content-type': 'application/json' } });
    expect([alert.status, alert.body.data.orderId]).toEqual([200, null]);
    const audits = await e2e.ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategy.id}`);
    expect(audits.rows.map((row) => row.message)).toEqual([PAUSE_SKIP_MESSAGES.strategy]);

    // After a reload the page shows what the server keeps.
    await page.reload();
    await card(page, 'strategy').getByText(/^Paused since /).waitFor();
  });

  it('an admin pauses the platform from the dashboard with the mailed code, and resumes it', async () => {
    const { page, person } = await e2e.signedInPage(AccountType.Admin);
    const box = card(page, 'platform');
    await box.getByText('Running').waitFor();
    const mailsBefore = e2e.ctx.mails(person.email).length;
    await box.getByRole('button', { name: 'Pause platform' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause platform' });
    await dialog.getByText('A 6-digit code was mailed to you').waitFor();
    await expect.poll(() => e2e.ctx.mails(person.email).length, { timeout: 20_000 }).toBeGreaterThan(mailsBefore);
    await dialog.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(e2e.ctx.lastCode(person.email));
    await closeResult(page, 'Paused.');
    await box.getByText(/^Paused since /).waitFor();
    await e2e.screenshot(page, 'kill-switch-platform-paused');
    const state = await e2e.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from trading_pauses where scope = 'platform'`);
    expect(state.rows[0]!.n).toBe(1);

    // Resuming takes a new code (one per 30 s: the clock of the test server moves on).
    e2e.ctx.clock.advance(31_000);
    await box.getByRole('button', { name: 'Resume platform' }).click();
    const resume = page.getByRole('dialog', { name: 'Resume platform' });
    await expect.poll(() => e2e.ctx.mails(person.email).length, { timeout: 20_000 }).toBeGreaterThan(mailsBefore + 1);
    await resume.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(e2e.ctx.lastCode(person.email));
    await closeResult(page, 'Resumed.');
    await box.getByText('Running').waitFor();
    const after = await e2e.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from trading_pauses where scope = 'platform'`);
    expect(after.rows[0]!.n).toBe(0);
  });

  it('an employee sees every switch and its state, each control disabled', async () => {
    const strategy = await goldStrategy(e2e.ctx);
    const customer = await e2e.person(AccountType.Customer, { group: CustomerGroup.Gold });
    await e2e.ctx.deps.db.execute(sql`insert into trading_pauses (scope, strategy_id) values ('strategy', ${strategy.id})`);
    const { page } = await e2e.signedInPage(AccountType.Employee);
    const platform = card(page, 'platform');
    await platform.getByText('Running').waitFor();
    expect(await platform.getByRole('button', { name: 'Pause platform' }).isDisabled()).toBe(true);

    await followLink(page, `/strategy/${strategy.id}`);
    const strategyBox = card(page, 'strategy');
    await strategyBox.getByText(/^Paused since /).waitFor();
    expect(await strategyBox.getByRole('button', { name: 'Resume strategy' }).isDisabled()).toBe(true);

    await followLink(page, `/customer/${customer.roleId}`);
    const customerBox = card(page, 'customer');
    await customerBox.getByText('Running').waitFor();
    expect(await customerBox.getByRole('button', { name: 'Pause copying' }).isDisabled()).toBe(true);
    await e2e.screenshot(page, 'kill-switch-employee-customer');
  });
});

describe('strategy guards in the back office', () => {
  const guards = (page: Page) => page.getByTestId('strategy-guards');
  const ageInput = (page: Page) => guards(page).getByLabel('Maximum alert age (seconds)');

  it('an admin types a maximum alert age and slippage and saves them; the page shows it after a reload and the next late alert is skipped', async () => {
    const strategy = await goldStrategy(e2e.ctx);
    const { page } = await e2e.signedInPage(AccountType.Admin, { at: `/strategy/${strategy.id}` });
    await guards(page).getByText(`Empty: the default, ${Math.round(e2e.ctx.config.trading.maxAlertAgeMs / 1000)} s.`, { exact: false }).waitFor();

    // Out of range: the form says why and sends nothing.
    await ageInput(page).click();
    await page.keyboard.type('0');
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    await guards(page).getByText(strategyGuardsMessages.maxAlertAge).waitFor();
    expect(await guardsOf(strategy.id)).toEqual({ age: null, slippage: null });

    await ageInput(page).press('Backspace');
    await page.keyboard.type('15');
    await guards(page).getByLabel('Maximum slippage (basis points)').click();
    await page.keyboard.type('40');
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    const popup = page.getByRole('dialog').filter({ hasText: 'Guards saved.' });
    await popup.getByRole('button', { name: 'Closed' }).click();
    await popup.waitFor({ state: 'detached' });
    expect(await guardsOf(strategy.id)).toEqual({ age: 15, slippage: 40 });
    await e2e.screenshot(page, 'strategy-guards-saved');

    await page.reload();
    await expect.poll(() => ageInput(page).inputValue(), { timeout: 20_000 }).toBe('15');
    expect(await guards(page).getByLabel('Maximum slippage (basis points)').inputValue()).toBe('40');

    // The guard acts on the next alert once the webhook snapshot has heard of the change.
    await expect.poll(async () => (await findWebhookStrategy(e2e.ctx.deps, strategy.token))?.maxAlertAgeS, { timeout: 20_000 }).toBe(15);
    const late = JSON.stringify({ action: 'open', alert_id: 'guard-late', timestamp: e2e.ctx.clock.now().getTime() - 30_000 });
    const answer = await e2e.ctx.api('POST', strategy.url, { payload: late, headers: { 'content-type': 'application/json' } });
    expect([answer.status, answer.body.data.orderId]).toEqual([200, null]);
    const audits = await e2e.ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategy.id}`);
    expect(audits.rows.map((row) => row.message)).toEqual([expect.stringMatching(/arrived more than 15 s late; no order was placed$/)]);
  });

  it('an employee sees the guard, read-only, and cannot save', async () => {
    const strategy = await goldStrategy(e2e.ctx);
    await e2e.ctx.deps.db.execute(sql`update strategies set max_alert_age_s = 120 where id = ${strategy.id}`);
    const { page } = await e2e.signedInPage(AccountType.Employee, { at: `/strategy/${strategy.id}` });
    await expect.poll(() => ageInput(page).inputValue(), { timeout: 20_000 }).toBe('120');
    expect(await ageInput(page).getAttribute('readonly')).not.toBeNull();
    expect(await guards(page).getByRole('button', { name: 'Save guards' }).isDisabled()).toBe(true);
  });
});

describe("a customer's guards in the back office", () => {
  const guards = (page: Page) => page.getByTestId('customer-guards');
  const field = (page: Page, label: string) => guards(page).getByLabel(label);

  it('an admin types a maximum leverage and notional on the customer page and saves them; a bad value is refused first; the page shows them after a reload; then the loss guards', async () => {
    const customer = await e2e.person(AccountType.Customer, { firstName: 'Gina', lastName: 'Guarded' });
    const { page } = await e2e.signedInPage(AccountType.Admin, { at: `/customer/${customer.roleId}` });
    await field(page, 'Maximum leverage').waitFor();

    await field(page, 'Maximum leverage').click();
    await page.keyboard.type('0');
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    await guards(page).getByText(customerGuardsMessages.maxLeverage).waitFor();
    expect(await customerGuardsOf(customer.roleId)).toBeUndefined();

    await field(page, 'Maximum leverage').press('Backspace');
    await page.keyboard.type('5');
    await field(page, 'Maximum notional per entry (USDT)').click();
    await page.keyboard.type('1000');
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    const popup = page.getByRole('dialog').filter({ hasText: 'Guards saved.' });
    await popup.getByRole('button', { name: 'Closed' }).click();
    await popup.waitFor({ state: 'detached' });
    expect(await customerGuardsOf(customer.roleId)).toEqual({ notional: 1000, leverage: 5, positions: null, balance: null });
    await e2e.screenshot(page, 'customer-guards-saved');

    await page.reload();
    await expect.poll(() => field(page, 'Maximum leverage').inputValue(), { timeout: 20_000 }).toBe('5');
    expect(await field(page, 'Maximum notional per entry (USDT)').inputValue()).toBe('1000');
    expect(await field(page, 'Maximum open positions').inputValue()).toBe('');

    // The loss guards on the same card: a drawdown out of range is refused first; then a daily loss limit, and when the pause ends.
    await field(page, 'Maximum drawdown (%)').click();
    await page.keyboard.type('150');
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    await guards(page).getByText(customerGuardsMessages.maxDrawdownPct).waitFor();
    expect(await lossGuardsOf(customer.roleId)).toEqual({ daily: null, drawdown: null, resume: 'staff' });
    await field(page, 'Maximum drawdown (%)').press('Control+A');
    await page.keyboard.type('20');
    await field(page, 'Daily loss limit (USDT)').click();
    await page.keyboard.type('500');
    await field(page, 'After a loss guard pauses copying').click();
    await page.getByRole('option', { name: 'Paused until the next day (00:00 UTC)' }).click();
    await guards(page).getByRole('button', { name: 'Save guards' }).click();
    const saved = page.getByRole('dialog').filter({ hasText: 'Guards saved.' });
    await saved.getByRole('button', { name: 'Closed' }).click();
    await saved.waitFor({ state: 'detached' });
    expect(await lossGuardsOf(customer.roleId)).toEqual({ daily: 500, drawdown: 20, resume: 'next_day' });
    expect(await customerGuardsOf(customer.roleId)).toEqual({ notional: 1000, leverage: 5, positions: null, balance: null });
  });

  it('a customer paused by a loss guard reads why on their dashboard, above their results', async () => {
    const reason = 'Daily loss limit reached: 512.40 USDT lost today (net of fees and funding), limit 500 USDT';
    const tomorrow = new Date(Date.now() + 86_400_000);
    const { page } = await e2e.signedInPage(AccountType.Customer, {
      firstName: 'Dora',
      lastName: 'Drawdown',
      at: '/customer/dashboard',
      prepare: async (customer) => {
        await e2e.ctx.deps.db.execute(sql`update customers set platform_type = ${Exchange.Bybit} where id = ${customer.roleId}`);
        await e2e.ctx.deps.db.execute(sql`insert into trading_pauses (scope, customer_id, reason, resume_at) values ('customer', ${customer.roleId}, ${reason}, ${tomorrow.toISOString()})`);
      },
    });
    const notice = page.getByTestId('pause-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(new RegExp(`^Copying is paused: no new positions are opened for you\\. ${reason.replace(/[()]/g, '\\$&')}\\. Your open positions keep their stop loss and take-profits\\. Resumes by itself at `));
    // Their results sit below: nothing realized, nothing open.
    await page.getByTestId('customer-results').getByText('No open position.').waitFor();
    await e2e.screenshot(page, 'customer-paused-by-guard');
  });

  it('an employee sees them read-only and cannot save', async () => {
    const customer = await e2e.person(AccountType.Customer);
    await e2e.ctx.deps.db.execute(sql`insert into customer_guards (customer_id, max_open_positions) values (${customer.roleId}, 4)`);
    const { page } = await e2e.signedInPage(AccountType.Employee, { at: `/customer/${customer.roleId}` });
    await expect.poll(() => field(page, 'Maximum open positions').inputValue(), { timeout: 20_000 }).toBe('4');
    expect(await field(page, 'Maximum open positions').getAttribute('readonly')).not.toBeNull();
    expect(await guards(page).getByRole('button', { name: 'Save guards' }).isDisabled()).toBe(true);
  });
});

async function lossGuardsOf(customerId: number): Promise<{ daily: number | null; drawdown: number | null; resume: string } | undefined> {
  const rows = await e2e.ctx.deps.db.execute<{ daily: number | null; drawdown: number | null; resume: string }>(
    sql`select daily_loss_limit_usdt as daily, max_drawdown_pct as drawdown, loss_guard_resume as resume from customer_guards where customer_id = ${customerId}`,
  );
  return rows.rows[0];
}

async function customerGuardsOf(customerId: number): Promise<{ notional: number | null; leverage: number | null; positions: number | null; balance: number | null } | undefined> {
  const rows = await e2e.ctx.deps.db.execute<{ notional: number | null; leverage: number | null; positions: number | null; balance: number | null }>(
    sql`select max_notional_usdt as notional, max_leverage as leverage, max_open_positions as positions, min_free_balance_usdt as balance from customer_guards where customer_id = ${customerId}`,
  );
  return rows.rows[0];
}

async function guardsOf(strategyId: string): Promise<{ age: number | null; slippage: number | null }> {
  const rows = await e2e.ctx.deps.db.execute<{ age: number | null; slippage: number | null }>(
    sql`select max_alert_age_s as age, max_slippage_bps as slippage from strategies where id = ${strategyId}`,
  );
  return rows.rows[0]!;
}
