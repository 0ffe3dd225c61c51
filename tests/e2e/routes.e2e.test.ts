import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, AmountType, CustomerGroup, Exchange } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { loginAs, type Person } from '../helpers/fixtures';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';
import { typeLabelled } from './typing';

/**
 * Walks every signed-in route of spec 2 for the roles allowed on it (screenshot of each in
 * tests/e2e/screenshots/route-*.png), checks refused routes and the visual defects of issue 10.
 */
let e2e: E2e;
let ids: { agent: number; employee: number; customer: number; pending: number; strategy: string };

beforeAll(async () => {
  // Saving a strategy checks its symbol against the exchanges: the built-in sandbox here.
  e2e = await startE2e({ sandbox: true });
  const agent = await e2e.person(AccountType.Agent, { firstName: 'Walter', lastName: 'Agent' });
  const employee = await e2e.person(AccountType.Employee, { firstName: 'Emma', lastName: 'Staff' });
  const customer = await e2e.person(AccountType.Customer, { agentId: agent.roleId, firstName: 'Carla', lastName: 'Client' });
  const pending = await e2e.person(AccountType.Customer, { status: AccountStatus.Pending, group: null, agentId: agent.roleId, firstName: 'Pia', lastName: 'Pending' });
  const admin = await e2e.person(AccountType.Admin);
  const token = await loginAs(e2e.ctx, admin);
  const strategy = await e2e.ctx.api('POST', '/api/strategy', {
    token,
    body: {
      id: 'WALK001',
      symbol: 'BTCUSDT',
      groups: [{ group: CustomerGroup.Gold, investAmount: { type: AmountType.Dollar, amount: 100 } }],
      entryDirection: 1,
      leverage: 10,
      positionMode: 1,
      takeProfitType: AmountType.Percent,
      takeProfitMode: 1,
      tp1: { targetLevel: 2, closeVolume: 100 },
      stopLoss: { type: AmountType.Percent, amount: 1 },
      trailingStop: false,
    },
  });
  expect(strategy.status).toBe(200);
  ids = { agent: agent.roleId, employee: employee.roleId, customer: customer.roleId, pending: pending.roleId, strategy: 'WALK001' };
});
afterAll(async () => e2e?.close());

/** Uncaught errors of the page (network refusals are answers, not errors). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function visit(page: Page, role: string, path: string): Promise<void> {
  // Typed into the address bar, the URL is answered with the app; the app then shows the route.
  const served = await page.request.get(path);
  expect(`${served.status()} ${served.headers()['content-type']}`, `${role} ${path}`).toMatch(/^200 text\/html/);
  await followLink(page, path);
  expect(new URL(page.url()).pathname, `${role} ${path}`).toBe(path);
  expect(await page.getByText('Sorry, we were unable to find that page').count(), `${role} ${path}`).toBe(0);
  await e2e.screenshot(page, `route-${role}${path.replace(/\//g, '-')}`);
}

async function sessionToken(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'accessToken')?.value;
}

async function hasSession(page: Page): Promise<boolean> {
  return (await sessionToken(page)) !== undefined;
}

describe('every route of spec 2, for each role allowed on it', () => {
  it('admin', async () => {
    const { page } = await e2e.signedInPage(AccountType.Admin);
    const errors = watchErrors(page);
    const routes = [
      '/admin/dashboard',
      '/admin/parameters/preset',
      '/admin/strategies',
      '/admin/orders',
      '/customers/approval',
      `/customers/approval/${ids.pending}`,
      '/customers',
      `/customer/${ids.customer}`,
      '/customer/add',
      '/agents',
      `/agent/${ids.agent}`,
      '/agent/add',
      '/employees',
      `/employee/${ids.employee}`,
      '/employee/add',
      `/strategy/${ids.strategy}`,
      '/activity/entry',
      '/activity/exit',
      '/activity/account',
      '/activity/webhook',
    ];
    for (const route of routes) await visit(page, 'admin', route);
    expect(errors).toEqual([]);
  });

  it('employee, and a refused route keeps the session', async () => {
    const { page } = await e2e.signedInPage(AccountType.Employee);
    const errors = watchErrors(page);
    const routes = [
      '/employee/dashboard',
      '/employee/parameters/preset',
      '/employee/strategies',
      '/employee/orders',
      '/customers/approval',
      `/customers/approval/${ids.pending}`,
      '/customers',
      `/customer/${ids.customer}`,
      '/customer/add',
      '/agents',
      `/agent/${ids.agent}`,
      '/employees',
      `/employee/${ids.employee}`,
      `/strategy/${ids.strategy}`,
      '/activity/entry',
      '/activity/exit',
      '/activity/account',
      '/activity/webhook',
    ];
    for (const route of routes) await visit(page, 'employee', route);
    await page.goto('/admin/orders');
    await page.waitForURL(/\/auth\/login$/);
    expect(await hasSession(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('agent', async () => {
    const { page } = await e2e.signedInPage(AccountType.Agent);
    const errors = watchErrors(page);
    for (const route of ['/agent/dashboard', '/agent/registrationids', '/agent/customers']) await visit(page, 'agent', route);
    await page.goto('/customers');
    await page.waitForURL(/\/auth\/login$/);
    expect(errors).toEqual([]);
  });

  it('customer', async () => {
    const customer: Person = await e2e.person(AccountType.Customer, { firstName: 'Cody', lastName: 'Customer' });
    await e2e.ctx.deps.db.update(customers).set({ platformType: Exchange.Bybit }).where(eq(customers.id, customer.roleId));
    const page = await e2e.newPage();
    await e2e.signIn(page, customer, { loginPath: '/auth/login', landing: /\/customer\/dashboard/ });
    const errors = watchErrors(page);
    for (const route of ['/customer/dashboard', '/customer/parameters/preset', '/customer/strategies', '/customer/orders']) await visit(page, 'customer', route);
    await page.goto('/agents');
    await page.waitForURL(/\/auth\/login$/);
    expect(errors).toEqual([]);
  });
});

describe('issue 10 in the browser', () => {
  it('shows sort arrows on sortable columns, table links in the theme colour, disabled inputs greyed and whole TP labels', async () => {
    const { page } = await e2e.signedInPage(AccountType.Admin, { at: '/customers' });
    const link = page.getByRole('link', { name: 'Carla Client' });
    await link.waitFor();
    expect(await link.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(91, 43, 191)');
    const nameHeader = page.getByRole('columnheader', { name: 'Name' });
    const arrowOpacity = await nameHeader.locator('.MuiTableSortLabel-icon').evaluate((element) => Number(getComputedStyle(element).opacity));
    expect(arrowOpacity).toBeGreaterThan(0.2);
    // The browser asks for reduced motion (harness): the app's transitions end at once.
    const motion = await page
      .getByRole('button', { name: 'Export' })
      .evaluate((element) => ({ reduce: matchMedia('(prefers-reduced-motion: reduce)').matches, seconds: parseFloat(getComputedStyle(element).transitionDuration) }));
    expect(motion.reduce).toBe(true);
    expect(motion.seconds).toBeLessThan(0.001);
    await e2e.screenshot(page, 'issue10-customers-sort-arrows');

    await followLink(page, `/strategy/${ids.strategy}`);
    const symbol = page.getByLabel('Symbol/Token');
    await symbol.waitFor();
    expect(await symbol.isDisabled()).toBe(true);
    const background = await symbol.evaluate((element) => getComputedStyle(element.closest('.MuiOutlinedInput-root') ?? element).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');

    await followLink(page, '/admin/parameters/preset');
    for (const label of ['TP1 Target Level', 'TP2 Target Level', 'TP3 Target Level', 'TP1 Close Volume (%)', 'Position Activation ($)', 'Position Close (%)']) {
      const element = page.locator('label', { hasText: label }).first();
      await element.waitFor();
      const cut = await element.evaluate((node) => node.scrollWidth > node.clientWidth + 1);
      expect(cut, label).toBe(false);
    }
    await e2e.screenshot(page, 'issue10-strategy-form-labels');
  });

  it('lines the inputs of the add forms up in rows of two (no select sits lower than its neighbour)', async () => {
    const { page } = await e2e.signedInPage(AccountType.Admin);
    for (const path of ['/customer/add', '/agent/add', '/employee/add']) {
      await followLink(page, path);
      await page.getByLabel('First Name').waitFor();
      const tops = await page.locator('form .MuiGrid-container .MuiFormControl-root').evaluateAll((nodes) => nodes.map((node) => Math.round(node.getBoundingClientRect().top)));
      const pairs = Array.from({ length: Math.floor(tops.length / 2) }, (_, i) => [tops[2 * i], tops[2 * i + 1]]);
      expect(pairs.length, path).toBeGreaterThanOrEqual(3);
      for (const [left, right] of pairs) expect(right, `${path} ${JSON.stringify(tops)}`).toBe(left);
    }
  });

  it('an employee on Webhook Settings sees the groups read-only and keeps the session (a 403 never signs out)', async () => {
    const { page } = await e2e.signedInPage(AccountType.Employee);
    const errors = watchErrors(page);
    await page.goto('/activity/webhook');
    await page.getByRole('heading', { name: 'Receive Webhook Once' }).waitFor();
    for (const group of ['Gold', 'Internal', 'Vip', 'Occasion', 'Exclusive']) {
      const toggle = page.getByRole('switch', { name: group });
      await toggle.waitFor();
      expect(await toggle.isDisabled(), group).toBe(true);
    }
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/activity/webhook');
    expect(await hasSession(page)).toBe(true);
    await page.goto('/employee/dashboard');
    await page.getByRole('heading', { name: 'Performance Overview' }).waitFor();
    expect(errors).toEqual([]);
  });

  it("an agent sees their own profile on the dashboard and changes their password: the session goes on with the answer's token and the new password signs in", async () => {
    const { page, person } = await e2e.signedInPage(AccountType.Agent, { firstName: 'Petra', lastName: 'Profile' });
    const errors = watchErrors(page);
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(person.email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    const tokenBefore = await sessionToken(page);
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    // Typed as a person: the current password first (the server asks for it), then the new one twice.
    await typeLabelled(dialog, 'Current password', person.password);
    await typeLabelled(dialog, 'New password', 'Fresh-Pass-123');
    await typeLabelled(dialog, 'Confirm new password', 'Fresh-Pass-123');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password reset successful!').waitFor();
    const tokenAfter = await sessionToken(page);
    expect(tokenAfter).toBeDefined();
    expect(tokenAfter).not.toBe(tokenBefore);
    await page.goto('/agent/customers');
    await page.getByRole('heading', { name: 'Customer Listing' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/agent/customers');
    const again = await e2e.newPage();
    await e2e.signIn(again, { email: person.email, password: 'Fresh-Pass-123' }, { landing: /\/agent\/dashboard$/ });
    expect(errors).toEqual([]);
  });

  it('staff log out to /admin/login; the old page stops asking the API and throws nothing', async () => {
    const { page } = await e2e.signedInPage(AccountType.Admin);
    const errors = watchErrors(page);
    await page.goto('/customers');
    await page.getByRole('heading', { name: 'Customer List' }).waitFor();
    await page.waitForLoadState('networkidle');
    const afterLogout: string[] = [];
    let loggedOut = false;
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (loggedOut && pathname.startsWith('/api/') && pathname !== '/api/security/logout') afterLogout.push(pathname);
    });
    const urls: string[] = [];
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    await page.getByRole('button', { name: 'Log out' }).click();
    loggedOut = true;
    await page.waitForURL(/\/admin\/login$/).catch((error: unknown) => {
      throw new Error(`went to ${JSON.stringify(urls)}; API after logout ${JSON.stringify(afterLogout)}`, { cause: error });
    });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(3000);
    expect(afterLogout).toEqual([]);
    expect(await hasSession(page)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('a customer logs out from the dashboard to /auth/login, not to a 404', async () => {
    const customer = await e2e.person(AccountType.Customer, { firstName: 'Lou', lastName: 'Logout' });
    await e2e.ctx.deps.db.update(customers).set({ platformType: Exchange.Bybit }).where(eq(customers.id, customer.roleId));
    const page = await e2e.newPage();
    const errors = watchErrors(page);
    await e2e.signIn(page, customer, { loginPath: '/auth/login', landing: /\/customer\/dashboard/ });
    await page.getByRole('button', { name: 'Log out' }).first().click();
    await page.waitForURL(/\/auth\/login$/);
    await page.getByText('Your Fund | Your Account Your Profit').waitFor();
    expect(await page.getByText('Sorry, we were unable to find that page').count()).toBe(0);
    expect(await hasSession(page)).toBe(false);
    expect(errors).toEqual([]);
  });
});
