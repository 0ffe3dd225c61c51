import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { loginAs } from '../helpers/fixtures';
import { startE2e, type E2e } from './harness';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e({ sandbox: true });
});
afterAll(async () => e2e?.close());

const phone = { width: 390, height: 844 };

describe('public pages on a phone', () => {
  it('registers with a Registration ID, quick-connects Bybit at the sandbox exchange and lands signed in', async () => {
    const agent = await e2e.person(AccountType.Agent);
    const token = await loginAs(e2e.ctx, agent);
    const created = await e2e.ctx.api('POST', '/api/registrationid', { token });
    expect(created.status).toBe(200);
    const code = created.body.data.code as string;

    const page = await e2e.newPage(phone);
    await page.goto('/auth/register');
    await page.getByLabel('Registration ID').fill(`  ${code} `);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('First name').fill('jane doe');
    expect(await page.getByLabel('First name').inputValue()).toBe('Jane Doe');
    await page.getByLabel('Last name').fill('smith');
    await page.getByLabel('Email').fill('jane.onboarding@example.com');
    await page.getByLabel('Age').fill('29');
    await page.getByLabel('Gender').click();
    await page.getByRole('option', { name: 'Female' }).click();
    await page.getByLabel('Country').fill('Singa');
    await page.getByRole('option', { name: /Singapore/ }).click();
    expect(await page.getByLabel('Mobile number').inputValue()).toBe('+65');
    await page.getByLabel('Mobile number').pressSequentially('91234567');
    expect(await page.getByLabel('Mobile number').inputValue()).toBe('+6591234567');
    await page.getByLabel('Password', { exact: true }).fill('a long password');
    await page.getByLabel('Confirm password').fill('a long password');
    await e2e.screenshot(page, 'register-form-phone');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/auth\/connect\?tempAccountId=.+/);

    await page.getByRole('button', { name: 'Select exchange' }).click();
    await e2e.screenshot(page, 'connect-dropdown-phone');
    await page.getByRole('option', { name: /Bybit/ }).click();
    await page.getByRole('button', { name: 'Connect Exchange' }).click();
    await page.getByRole('dialog', { name: 'Connect Bybit' }).waitFor();
    await e2e.screenshot(page, 'connect-modal-phone');
    const visited: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url().replace(e2e.baseUrl, '')));
    await page.getByRole('button', { name: 'Next' }).click();
    // The exchange's consent page (the sandbox), then back through our callback.
    await page.waitForURL((url) => url.origin === e2e.sandbox!.url);
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(/\/customer\/dashboard/);
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'accessToken')?.path).toBe('/');
    expect(visited.some((url) => /^\/auth\/exchange\/success\?platformType=2&accessToken=[\w-]+/.test(url))).toBe(true);
    expect(visited).toContain('/customer/dashboard?success=True&platformType=2');
  });

  it('an unknown Registration ID is refused with the server message', async () => {
    const page = await e2e.newPage(phone);
    await page.goto('/auth/register');
    await page.getByLabel('Registration ID').fill('NOT-A-REAL-ID');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This Registration ID is not valid');
  });

  it('login and connect pages on a desktop', async () => {
    const page = await e2e.newPage();
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await e2e.screenshot(page, 'login-desktop');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('dialog', { name: 'Forgot your password?' }).waitFor();
    await e2e.screenshot(page, 'forgot-customer-desktop');
    await page.goto('/auth/connect?tempAccountId=preview');
    await page.getByRole('heading', { name: 'Connect Your Exchange' }).waitFor();
    await e2e.screenshot(page, 'connect-desktop');
  });

  it('terms (14 sections) and privacy (10 sections, last modified September 10th, 2024)', async () => {
    const page = await e2e.newPage(phone);
    await page.goto('/terms');
    await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
    expect(await page.locator('main ol > li').count()).toBe(14);
    await e2e.screenshot(page, 'terms-phone');
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(await page.locator('main ol > li').count()).toBe(10);
    expect(await page.getByText('Last modified: September 10th, 2024').isVisible()).toBe(true);
  });
});
