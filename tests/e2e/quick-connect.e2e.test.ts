import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { loginAs } from '../helpers/fixtures';
import { startE2e, type E2e } from './harness';

let e2e: E2e;
beforeAll(async () => {
  // Like `npm start` with no PUBLIC_URL: the sandbox is mounted in the app, PUBLIC_URL defaults to localhost.
  e2e = await startE2e({ asNpmStart: true });
});
afterAll(async () => e2e?.close());

async function registrationId(): Promise<string> {
  const agent = await e2e.person(AccountType.Agent);
  const created = await e2e.ctx.api('POST', '/api/registrationid', { token: await loginAs(e2e.ctx, agent) });
  expect(created.status).toBe(200);
  return created.body.data.code as string;
}

/** Registration ID, account form, Bybit quick connect at the sandbox's consent page, Authorize. */
async function registerThroughQuickConnect(page: Page, origin: string, email: string): Promise<string[]> {
  await page.goto(`${origin}/auth/register`);
  await page.getByLabel('Registration ID').fill(await registrationId());
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('First name').fill('quick');
  await page.getByLabel('Last name').fill('connect');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Age').fill('35');
  await page.getByLabel('Gender').click();
  await page.getByRole('option', { name: 'Male', exact: true }).click();
  await page.getByLabel('Country').fill('Singa');
  await page.getByRole('option', { name: /Singapore/ }).click();
  await page.getByLabel('Mobile number').pressSequentially('91234567');
  await page.getByLabel('Password', { exact: true }).fill('a long password');
  await page.getByLabel('Confirm password').fill('a long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/auth\/connect\?tempAccountId=.+/);
  await page.getByRole('button', { name: 'Select exchange' }).click();
  await page.getByRole('option', { name: /Bybit/ }).click();
  await page.getByRole('button', { name: 'Connect Exchange' }).click();
  await page.getByRole('dialog', { name: 'Connect Bybit' }).waitFor();
  const visited: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url()));
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.pathname === '/sandbox/en/oauth');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL(/\/customer\/dashboard/, { timeout: 20_000 });
  return visited;
}

describe('quick connect with the default PUBLIC_URL, whichever loopback name the browser used', () => {
  it('registers at http://127.0.0.1:PORT: the consent page and the way back stay on 127.0.0.1', async () => {
    expect(e2e.ctx.config.publicUrl).toBe(`http://localhost:${e2e.ctx.config.port}`);
    const page = await e2e.newPage();
    const visited = await registerThroughQuickConnect(page, e2e.baseUrl, 'quick.ipv4@example.com');
    const origins = new Set(visited.map((url) => new URL(url).origin));
    expect([...origins]).toEqual([e2e.baseUrl]);
    expect(visited.some((url) => /\/auth\/exchange\/success\?platformType=2&accessToken=[\w-]+/.test(url))).toBe(true);
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'accessToken')?.path).toBe('/');
    const customer = await e2e.ctx.handle.pool.query("select a.status from accounts a where a.email = 'quick.ipv4@example.com'");
    expect(customer.rows).toEqual([{ status: 1 }]);
  });

  it('registers at http://localhost:PORT the same way', async () => {
    const origin = `http://localhost:${e2e.ctx.config.port}`;
    const page = await e2e.newPage();
    const visited = await registerThroughQuickConnect(page, origin, 'quick.localhost@example.com');
    expect([...new Set(visited.map((url) => new URL(url).origin))]).toEqual([origin]);
  });
});
