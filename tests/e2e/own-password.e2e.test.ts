import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { server, ui } from '../../contract/messages';
import { PASSWORD } from '../helpers/fixtures';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => e2e?.close());

/** Clicks into a field and types as a person does, key by key. */
async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByRole('dialog').getByLabel(label, { exact: true });
  await field.click();
  await field.press('Control+A');
  await field.press('Backspace');
  await page.keyboard.type(text);
}

/** The pencil of one's own password (agent dashboard, customer dashboard). */
async function openPencil(page: Page) {
  await page.getByRole('button', { name: 'Change password' }).first().click();
}

/** An admin's own profile: Actions, then Change Password. */
async function openFromActions(page: Page) {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Change Password', exact: true }).click();
}

/**
 * One's own password, opened with `open`: the current password is asked first; a wrong one is
 * refused with the server's message and changes nothing.
 */
async function changeOwnPassword(page: Page, email: string, open: (page: Page) => Promise<void> = openPencil) {
  await open(page);
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.waitFor();
  await typeInto(page, 'Current password', 'not my password');
  await typeInto(page, 'New password', 'my new password 42');
  await typeInto(page, 'Confirm new password', 'my new password 42');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await dialog.getByText(server.currentPasswordWrong).waitFor();
  expect((await e2e.ctx.api('POST', '/api/security/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  await e2e.screenshot(page, `own-password-wrong-current-${email.split('.')[0]}`);

  await typeInto(page, 'Current password', PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  const popup = page.getByRole('dialog').filter({ hasText: ui.accountsSuccess.passwordReset });
  await popup.waitFor();
  await popup.getByRole('button', { name: 'Closed' }).click();
  // The new password signs in, the old one no longer does; this page carries on with the new session.
  expect((await e2e.ctx.api('POST', '/api/security/login', { body: { email, password: 'my new password 42' } })).status).toBe(200);
  expect((await e2e.ctx.api('POST', '/api/security/login', { body: { email, password: PASSWORD } })).status).toBe(401);
  await page.reload();
  await open(page);
  await dialog.waitFor();
}

describe("changing one's own password asks for the current one", () => {
  it('an agent types the current password on the dashboard: a wrong one is refused, the right one changes it', async () => {
    const { page, person } = await e2e.signedInPage(AccountType.Agent);
    await changeOwnPassword(page, person.email);
    expect(page.url()).toMatch(/\/agent\/dashboard$/);
  });

  it('a customer does the same from the customer dashboard', async () => {
    const person = await e2e.person(AccountType.Customer);
    // A customer with a connected exchange (one without is sent to the connect page).
    await e2e.ctx.handle.pool.query('update customers set platform_type = 1 where id = $1', [person.roleId]);
    const page = await e2e.newPage();
    await e2e.signIn(page, person, { loginPath: '/auth/login', landing: /\/customer\/dashboard$/ });
    await changeOwnPassword(page, person.email);
    expect(page.url()).toMatch(/\/customer\/dashboard$/);
  });

  it('an admin does the same from their own profile (Actions, Change Password), not as setting another account', async () => {
    const { page, person } = await e2e.signedInPage(AccountType.Admin);
    await followLink(page, `/employee/${person.roleId}`);
    await page.getByRole('heading', { name: 'Employee Profile' }).waitFor();
    await changeOwnPassword(page, person.email, openFromActions);
    expect(page.url()).toMatch(new RegExp(`/employee/${person.roleId}$`));
  });

  it("an admin sets another account's password without it: the agent's new password signs in", async () => {
    const agent = await e2e.person(AccountType.Agent, { firstName: 'Reset', lastName: 'Agent' });
    const { page } = await e2e.signedInPage(AccountType.Admin, { at: `/agent/${agent.roleId}` });
    await page.getByRole('heading', { name: 'Agent Profile' }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(agent.email);
    await openFromActions(page);
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Current password', { exact: true }).count()).toBe(0);
    await typeInto(page, 'New password', 'set by the admin 7');
    await typeInto(page, 'Confirm new password', 'set by the admin 7');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const popup = page.getByRole('dialog').filter({ hasText: ui.accountsSuccess.passwordReset });
    await popup.waitFor();
    await e2e.screenshot(page, 'own-password-admin-sets-agent');
    await popup.getByRole('button', { name: 'Closed' }).click();
    expect((await e2e.ctx.api('POST', '/api/security/login', { body: { email: agent.email, password: 'set by the admin 7' } })).status).toBe(200);
    expect((await e2e.ctx.api('POST', '/api/security/login', { body: { email: agent.email, password: PASSWORD } })).status).toBe(401);
  });
});
