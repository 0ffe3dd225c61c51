import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccountType, Exchange, NotificationType } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { publishNotification } from '../../server/lib/notify';
import { startE2e, type E2e } from './harness';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => e2e?.close());

const menuLabels = async (page: import('playwright-core').Page) =>
  (await page.locator('nav[class*="MuiList"] .MuiListItemText-primary').allTextContents()).map((text) => text.trim());

describe('signing in with the emailed code lands each account type on its page with its menu', () => {
  it('admin', async () => {
    const admin = await e2e.person(AccountType.Admin, { firstName: 'Alice', lastName: 'Admin' });
    const page = await e2e.newPage();
    await e2e.signIn(page, admin, { landing: /\/admin\/dashboard$/ });
    await expect.poll(() => menuLabels(page), { timeout: 15_000 }).toEqual([
      'Dashboard',
      'Presetting Parameters',
      'Strategy Setting Record',
      'Order & Alert',
      'Approval Status (New Registration)',
      'Clientele & Staff',
      'Activity Monitor',
    ]);
    expect(await page.getByTestId('topbar-name').textContent()).toBe('Alice Admin');
    expect(await page.getByTestId('topbar-role').textContent()).toBe('Admin');
    await page.getByRole('button', { name: 'Activity Monitor' }).click();
    await expect.poll(() => menuLabels(page), { timeout: 15_000 }).toContain('Webhook Settings');
    await e2e.screenshot(page, 'admin-dashboard');
    // An exit failure published by the server puts red dots on Activity Monitor and Exit Audit.
    expect(await page.getByLabel('New errors').count()).toBe(0);
    await expect
      .poll(async () => {
        await publishNotification(e2e.ctx.deps.db, { type: NotificationType.ExitFailure, message: 'exit failed' });
        return page.getByLabel('New errors').count();
      }, { timeout: 15_000, interval: 500 })
      .toBe(2);
    expect(await page.getByRole('link', { name: 'Exit Audit' }).getByLabel('New errors').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Entry Audit' }).getByLabel('New errors').count()).toBe(0);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/admin\/login$/);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('accessToken');
    await page.goto('/admin/dashboard');
    await page.waitForURL(/\/auth\/login$/);
  });

  it('employee', async () => {
    const employee = await e2e.person(AccountType.Employee, { firstName: 'Eve', lastName: 'Employee' });
    const page = await e2e.newPage();
    await e2e.signIn(page, employee, { landing: /\/employee\/dashboard$/ });
    await page.getByRole('button', { name: 'Activity Monitor' }).click();
    await page.getByRole('button', { name: 'Clientele & Staff' }).click();
    await expect.poll(() => menuLabels(page), { timeout: 15_000 }).toEqual([
      'Dashboard',
      'Strategy Setting Record',
      'Order & Alert',
      'Approval Status (New Registration)',
      'Clientele & Staff',
      'Agent List',
      'Employee List',
      'Customer List',
      'Activity Monitor',
      'Entry Audit',
      'Exit Audit',
      'Account Health Check',
    ]);
    expect(await page.getByTestId('topbar-role').textContent()).toBe('Employee');
    await e2e.screenshot(page, 'employee-dashboard');
  });

  it('agent', async () => {
    const { page } = await e2e.signedInPage(AccountType.Agent, { firstName: 'Arthur', lastName: 'Agent' });
    expect(new URL(page.url()).pathname).toBe('/agent/dashboard');
    await expect.poll(() => menuLabels(page), { timeout: 15_000 }).toEqual(['Dashboard', 'Registration ID', 'Customer List']);
    expect(await page.getByTestId('topbar-name').textContent()).toBe('Arthur Agent');
    await e2e.screenshot(page, 'agent-dashboard');
  });

  it('customer, on the customer login', async () => {
    const customer = await e2e.person(AccountType.Customer, { firstName: 'Carol', lastName: 'Customer' });
    // A customer with an exchange connected (platformType 0 would send them to /auth/connect).
    await e2e.ctx.deps.db.update(customers).set({ platformType: Exchange.Bybit }).where(eq(customers.id, customer.roleId));
    const page = await e2e.newPage();
    await e2e.signIn(page, customer, { loginPath: '/auth/login', landing: /\/customer\/dashboard/ });
    // Issue 28 item 13: customers get back to their dashboard from the menu.
    await expect.poll(() => menuLabels(page), { timeout: 15_000 }).toEqual(['Dashboard', 'Presetting Parameters', 'Strategy Setting Record', 'Order & Alert']);
    await e2e.screenshot(page, 'customer-dashboard');
  });

  it('on a phone the menu is an overlay that closes when the backdrop is tapped', async () => {
    const admin = await e2e.person(AccountType.Admin, { firstName: 'Paula', lastName: 'Phone' });
    const page = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, admin, { landing: /\/admin\/dashboard$/ });
    const drawer = page.locator('.MuiDrawer-paper');
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await drawer.getByRole('link', { name: 'Dashboard' }).waitFor();
    await e2e.screenshot(page, 'admin-menu-phone');
    await page.mouse.click(370, 500);
    await drawer.waitFor({ state: 'hidden' });
  });

  it('refuses a customer on the staff login', async () => {
    const customer = await e2e.person(AccountType.Customer);
    const page = await e2e.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Access restricted to admins only.');
  });

  it('sends a visitor without a session from a back-office page to /auth/login, and shows 404 elsewhere', async () => {
    const page = await e2e.newPage({ width: 390, height: 844 });
    await page.goto('/customers');
    await page.waitForURL(/\/auth\/login$/);
    await page.getByText('Your Fund | Your Account Your Profit').waitFor();
    await e2e.screenshot(page, 'login-phone');
    await page.goto('/no/such/page');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sorry, we were unable to find that page');
    await page.goto('/');
    await page.waitForURL(/\/auth\/login$/);
  });
});
