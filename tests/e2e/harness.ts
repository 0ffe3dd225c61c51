import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AccountType } from '../../contract/enums';
import { landingPath } from '../../src/authProvider/landing';
import { ACCESS_TOKEN_COOKIE, SESSION_DAYS } from '../../contract/constants';
import { createPerson, loginAs, type Person } from '../helpers/fixtures';
import { loadConfig } from '../../server/config';
import { sandboxMountsFor, startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { newToken } from '../../server/lib/tokens';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { guardedFetch } from '../helpers/fetch-guard';
import { createTestContext, type TestContext } from '../helpers/test-app';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
/** `E2E_SCREENSHOTS=1 npm run test:e2e` saves them (about a second each: the network idle, then the whole page). */
const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === '1';

export interface E2e {
  /** The real app (API + built web app) over a fresh database; `ctx.lastCode(email)` reads the outbox. */
  ctx: TestContext;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  browser: Browser;
  /** The exchange sandbox (Bybit/Bitget API and quick-connect pages) when started with `{ sandbox: true }`. */
  sandbox?: RunningSandbox;
  /** A fresh browser context (own cookies, reduced motion) and page; desktop size unless `viewport` is given. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Creates a person of that type (Active, country SG) in the database. */
  person(accountType: AccountType, options?: Parameters<typeof createPerson>[2]): Promise<Person>;
  /** Signs in through the UI (password, then the emailed code typed in the six boxes) and waits for the landing page. */
  signIn(page: Page, person: Pick<Person, 'email' | 'password'>, options?: { loginPath?: string; landing?: string | RegExp }): Promise<void>;
  /**
   * A new person of that type with a session on a new page, opened at `at` (default: their landing page).
   * The session comes from the API's own sign-in (password, then the emailed code) and is kept in the
   * app's session cookie; the sign-in screens themselves are typed through `signIn` where they are tested.
   * `prepare` changes the person's data before that page opens.
   */
  signedInPage(
    accountType: AccountType,
    options?: Parameters<typeof createPerson>[2] & { viewport?: { width: number; height: number }; at?: string; prepare?: (person: Person) => Promise<void> },
  ): Promise<{ page: Page; person: Person }>;
  /** With E2E_SCREENSHOTS=1: saves tests/e2e/screenshots/<name>.png (git-ignored), once the network is idle and animations are done. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export interface E2eOptions {
  /** A standalone exchange sandbox on its own port (`e2e.sandbox`). */
  sandbox?: boolean;
  /**
   * Run like `npm start` with no PUBLIC_URL: the sandbox mounted under /sandbox of the app itself,
   * PORT the app's port and PUBLIC_URL unset (so its default is http://localhost:PORT).
   */
  asNpmStart?: boolean;
}

/**
 * One server and one Chromium per test file: `const e2e = await startE2e()` in beforeAll,
 * `await e2e.close()` in afterAll. The web app is built once per run by tests/e2e/global-build.ts.
 */
export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  const sandbox = options.sandbox ? await startSandbox({ randomWalk: false }) : undefined;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const defaults = loadConfig({ PORT: String(port) });
  const ctx = await createTestContext({
    app: {
      serveWeb: true,
      ...(options.asNpmStart ? { extraPlugins: sandboxMountsFor({ exchangeMode: 'sandbox', dataDir: defaults.dataDir }, { SANDBOX_CONTROL_TOKEN: newToken() }, () => undefined) } : {}),
    },
    // publicUrl is where the exchanges send the browser back after quick connect.
    config: options.asNpmStart ? { port, publicUrl: defaults.publicUrl, publicUrlConfigured: false } : { publicUrl: baseUrl, publicUrlConfigured: true },
  });
  if (sandbox) useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  if (options.asNpmStart) useExchangeAccess(ctx.deps, { sandboxUrl: `${baseUrl}/sandbox`, fetchImplementation: guardedFetch });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const contexts: BrowserContext[] = [];

  const e2e: E2e = {
    ctx,
    baseUrl,
    browser,
    ...(sandbox ? { sandbox } : {}),
    async newPage(viewport = { width: 1366, height: 860 }) {
      // As a person who asks their system for less motion (the app honours it): no frames spent on transitions.
      const context = await browser.newContext({ baseURL: baseUrl, viewport, reducedMotion: 'reduce' });
      contexts.push(context);
      return context.newPage();
    },
    person: (accountType, options) => createPerson(ctx, accountType, options),
    async signIn(page, person, options = {}) {
      await page.goto(options.loginPath ?? '/admin/login');
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      const before = ctx.mails(person.email).length;
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('dialog', { name: 'Verification code' }).waitFor();
      await waitFor(() => ctx.mails(person.email).length > before);
      await page.getByLabel('Digit 1 of 6').click();
      await page.keyboard.type(ctx.lastCode(person.email));
      await page.waitForURL(options.landing ?? /\/(admin|employee|agent|customer)\/dashboard$/);
    },
    async signedInPage(accountType, options = {}) {
      const { viewport, at, prepare, ...personOptions } = options;
      const person = await createPerson(ctx, accountType, personOptions);
      // What the person's data must hold before their first page is shown (an exchange connected, a pause).
      await prepare?.(person);
      const page = await e2e.newPage(viewport);
      const token = await loginAs(ctx, person);
      // As src/dataProvider/token.ts stores it after the code is verified.
      await page.context().addCookies([{ name: ACCESS_TOKEN_COOKIE, value: token, url: baseUrl, sameSite: 'Strict', expires: Date.now() / 1000 + SESSION_DAYS * 86_400 }]);
      await page.goto(at ?? landingPath(accountType));
      return { page, person };
    },
    async screenshot(page, name) {
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      // A picture for a person to look at, never an assertion: the suite skips them unless asked.
      if (!SCREENSHOTS_WANTED) return file;
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      // Loaded data; transitions (menus and dialogs animate for 300 ms) are finished at once, not waited out.
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      return file;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await ctx.close();
      await sandbox?.close();
    },
  };
  return e2e;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for the mail');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
