import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { exitAudits } from '../../server/db/schema/index';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';
import { typeInto } from './typing';

/** Issue 28 items 4, 16, 17 and 18 in Chromium at 1366 px: what a person sees, not what the DOM holds. */
let e2e: E2e;
let admin: Page;
beforeAll(async () => {
  e2e = await startE2e();
  admin = (await e2e.signedInPage(AccountType.Admin)).page;
});
afterAll(async () => e2e?.close());

/** The most lines any piece of text of the element is broken into on screen (1: nothing wraps). */
function linesOf(cell: Locator): Promise<number> {
  return cell.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let most = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      most = Math.max(most, tops.size);
    }
    return most;
  });
}

/** Whether the list's table is wider than the page leaves it (a horizontal scroll bar). */
function tableOverflows(page: Page): Promise<boolean> {
  return page.locator('.MuiTableContainer-root').first().evaluate((container) => container.scrollWidth > container.clientWidth + 1);
}

describe('back after log-out (item 4)', () => {
  it('shows the sign-in page, not a blank one', async () => {
    const { page } = await e2e.signedInPage(AccountType.Employee, { at: '/customers' });
    await page.getByRole('heading', { name: 'Customer List' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/admin\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goBack();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/(auth|admin)\/login$/);
  });
});

describe('tables at 1366 px (item 16)', () => {
  it('keep ids and dates on one line, and cut a long audit message to one line with the whole text on hover', async () => {
    const long = `The position could not be closed: ${'the exchange refused the request with a long explanation '.repeat(6)}end.`;
    await e2e.ctx.deps.db.insert(exitAudits).values([
      { orderId: null, customerId: null, strategyId: null, exitType: null, isError: true, message: long },
      { orderId: null, customerId: null, strategyId: null, exitType: null, isError: false, message: 'Short message' },
    ]);
    await followLink(admin, '/activity/exit');
    const longCell = admin.getByRole('cell', { name: long });
    await longCell.waitFor();
    expect(await longCell.getAttribute('title')).toBe(long);
    expect(await linesOf(longCell)).toBe(1);
    expect(await tableOverflows(admin)).toBe(false);
    const row = admin.getByRole('row').filter({ has: longCell });
    for (const cell of await row.getByRole('cell').all()) expect(await linesOf(cell), (await cell.textContent()) ?? '').toBeLessThanOrEqual(1);
    await e2e.screenshot(admin, 'screens-exit-audit-1366');

    await e2e.person(AccountType.Customer, { firstName: 'Maximiliana', lastName: 'Wolfeschlegelsteinhausen' });
    await followLink(admin, '/customers');
    const customerRow = admin.getByRole('row').filter({ hasText: 'Wolfeschlegelsteinhausen' });
    await customerRow.waitFor();
    for (const cell of await customerRow.getByRole('cell').all()) expect(await linesOf(cell), (await cell.textContent()) ?? '').toBeLessThanOrEqual(1);
    for (const header of await admin.getByRole('columnheader').all()) expect(await linesOf(header), (await header.textContent()) ?? '').toBeLessThanOrEqual(1);
    expect(await tableOverflows(admin)).toBe(false);
  });
});

describe('read-only profile fields (item 17)', () => {
  it('do not look like inputs: no outline, a grey panel, no text cursor', async () => {
    const customer = await e2e.person(AccountType.Customer, { firstName: 'Rita', lastName: 'Readonly' });
    await followLink(admin, `/customer/${customer.roleId}`);
    const email = admin.getByLabel('Email', { exact: true });
    await email.waitFor();
    expect(await email.getAttribute('readonly')).not.toBeNull();
    const look = await email.evaluate((input) => {
      const root = input.closest('.MuiInputBase-root')!;
      return { outlined: root.querySelector('fieldset') !== null, background: getComputedStyle(root).backgroundColor, cursor: getComputedStyle(input).cursor };
    });
    expect(look.outlined).toBe(false);
    expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
    expect(look.cursor).toBe('default');
    await e2e.screenshot(admin, 'screens-customer-profile-readonly');
  });
});

describe('the Country filter (item 18)', () => {
  it('loads one page when opened and searches as a person types; never every page', async () => {
    const searches: Array<{ pageIndex?: number; filter?: unknown[] }> = [];
    admin.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/country/search') searches.push(JSON.parse(request.postData() ?? '{}') as { pageIndex?: number });
    });
    await followLink(admin, '/agents');
    await admin.getByRole('heading', { name: 'Agent List' }).waitFor();
    await admin.waitForLoadState('networkidle');
    expect(searches).toEqual([]);
    const country = admin.getByRole('combobox', { name: 'Country' });
    await country.click();
    await admin.getByRole('option').first().waitFor();
    expect(searches.map((body) => body.pageIndex)).toEqual([0]);
    await typeInto(country, 'singa');
    await admin.getByRole('option', { name: 'Singapore' }).click();
    await admin.waitForURL(/\/agents\?country=\d+$/);
    expect(searches.filter((body) => body.pageIndex !== 0)).toEqual([]);
  });
});
