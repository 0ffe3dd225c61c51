import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, CustomerGroup } from '../../contract/enums';
import { ui, validation } from '../../contract/messages';
import { startE2e, type E2e } from './harness';
import { followLink } from './navigation';
import { choose, chooseCountry, closePopup, fieldMessages, typeLabelled } from './typing';

/**
 * Every create and edit form of the back office, filled as a person fills it (keyboard and mouse,
 * no value set directly), submitted, and its result seen in its list or page (issue 28).
 */
let e2e: E2e;
let admin: Page;
beforeAll(async () => {
  // Saving a strategy checks its symbol against the exchanges: the built-in sandbox here.
  e2e = await startE2e({ sandbox: true });
  admin = (await e2e.signedInPage(AccountType.Admin)).page;
});
afterAll(async () => e2e?.close());

async function submit(page: Page, name = 'Submit') {
  await page.getByRole('button', { name, exact: true }).click();
}

/** The personal fields every add form shares, typed key by key. */
async function typePerson(page: Page, person: { first: string; last: string; email: string; age: string; mobile: string; gender: string }) {
  await typeLabelled(page, 'First Name', person.first);
  await typeLabelled(page, 'Last Name', person.last);
  await typeLabelled(page, 'Email', person.email);
  await typeLabelled(page, 'Age', person.age);
  await chooseCountry(page, 'Country', 'Singa', /^Singapore/);
  await typeLabelled(page, 'Mobile', person.mobile);
  await choose(page, 'Gender', person.gender);
  await typeLabelled(page, 'Password', 'Typed-Pass-123');
}

describe('add forms (items 1 and 7)', () => {
  it('an empty Add Customer says which field is missing, in the spec’s words where it has them', async () => {
    await e2e.person(AccountType.Agent, { firstName: 'Ada', lastName: 'Agentson' });
    await followLink(admin, '/customers');
    await admin.getByRole('link', { name: 'Add Customer' }).click();
    await admin.waitForURL(/\/customer\/add$/);
    await admin.getByLabel('First Name', { exact: true }).waitFor();
    await submit(admin);
    await closePopup(admin, ui.form.fillRequired);
    expect(await fieldMessages(admin)).toEqual([
      'First Name is required',
      'Last Name is required',
      'Email is required',
      'Age is required',
      validation.selectCountry,
      'Mobile is required',
      'Please select gender',
      'Password is required',
      validation.selectAgent,
      validation.selectExchange,
      'Exchange UID is required',
      'API Key is required',
      'API Secret is required',
      validation.selectGroupOrExclusive,
    ]);
    await e2e.screenshot(admin, 'forms-customer-add-empty');
  });

  it('an admin types a new customer, submits, and finds them pending approval', async () => {
    await admin.goto('/customer/add');
    await typePerson(admin, { first: 'mary ann', last: 'lee', email: 'mary.lee@example.com', age: '30', mobile: '91234567', gender: 'Female' });
    await choose(admin, 'Agent', 'Ada Agentson');
    await choose(admin, 'Exchange', 'Bybit');
    await typeLabelled(admin, 'Exchange UID', '5550001');
    await typeLabelled(admin, 'API Key', 'typed-key-0001');
    await typeLabelled(admin, 'API Secret', 'typed-secret-0001');
    await choose(admin, 'Group', 'Gold');
    expect(await admin.getByLabel('First Name', { exact: true }).inputValue()).toBe('Mary Ann');
    expect(await admin.getByLabel('Mobile', { exact: true }).inputValue()).toBe('+6591234567');
    await submit(admin);
    await closePopup(admin, ui.accountsSuccess.customerCreated);
    await admin.waitForURL(/\/customers$/);
    await followLink(admin, '/customers/approval');
    await admin.getByRole('link', { name: 'Mary Ann Lee' }).waitFor();
  });

  it('a wrong age or email is named by its field', async () => {
    await followLink(admin, '/agent/add');
    await typeLabelled(admin, 'Email', 'not-an-email');
    await typeLabelled(admin, 'Age', '-5');
    expect(await admin.getByLabel('Age', { exact: true }).inputValue()).toBe('0');
    await submit(admin);
    await closePopup(admin, ui.form.fillRequired);
    const messages = await fieldMessages(admin);
    expect(messages).toContain('Email must be a valid email address');
    expect(messages).not.toContain('Age is required');
  });

  it('an admin types a new agent, submits, and finds them in the agent list', async () => {
    await followLink(admin, '/agents');
    await admin.getByRole('link', { name: 'Add Agent' }).click();
    await admin.waitForURL(/\/agent\/add$/);
    await typePerson(admin, { first: 'otto', last: 'typed', email: 'otto.typed@example.com', age: '41', mobile: '98765432', gender: 'Male' });
    await submit(admin);
    await closePopup(admin, ui.accountsSuccess.agentCreated);
    await admin.waitForURL(/\/agents$/);
    await admin.getByRole('link', { name: 'Otto Typed' }).waitFor();
  });

  it('an empty Add Employee asks for the staff permission; typed, it lands in the employee list', async () => {
    await followLink(admin, '/employees');
    await admin.getByRole('link', { name: 'Add Employee' }).click();
    await admin.waitForURL(/\/employee\/add$/);
    await admin.getByLabel('First Name', { exact: true }).waitFor();
    await submit(admin);
    await closePopup(admin, ui.form.fillRequired);
    expect(await fieldMessages(admin)).toContain('Please select staff permissions');
    expect((await fieldMessages(admin)).filter((message) => !/^[A-Z]/.test(message))).toEqual([]);
    await typePerson(admin, { first: 'erin', last: 'keys', email: 'erin.keys@example.com', age: '29', mobile: '90001111', gender: 'Female' });
    await choose(admin, 'Staff Permissions', 'User');
    await submit(admin);
    await closePopup(admin, ui.accountsSuccess.staffAdded);
    await admin.waitForURL(/\/employees$/);
    await admin.getByRole('link', { name: 'Erin Keys' }).waitFor();
  });
});

describe('strategy, approval, groups and registration IDs', () => {
  it('an admin types a strategy, saves it, updates its stop loss and sees both', async () => {
    await followLink(admin, '/admin/parameters/preset');
    await typeLabelled(admin, 'Symbol/Token', 'BTCUSDT');
    await typeLabelled(admin, 'Strategy ID', 'TYPED01');
    await typeLabelled(admin, 'Leverage', '20');
    await choose(admin, 'Position Mode', 'One-Way Mode');
    await admin.getByRole('checkbox', { name: 'Gold' }).check();
    await typeLabelled(admin, 'Invest ($)', '100');
    await typeLabelled(admin, 'TP1 Target Level', '2');
    await typeLabelled(admin, 'Stop Loss', '1');
    await submit(admin, 'Save');
    await admin.waitForURL(/\/strategy\/TYPED01$/, { timeout: 15_000 });
    await closePopup(admin, ui.strategy.saved);
    await typeLabelled(admin, 'Stop Loss', '3');
    await submit(admin, 'Update');
    await closePopup(admin, ui.strategy.updated);
    await admin.reload();
    await expect.poll(() => admin.getByLabel('Stop Loss', { exact: true }).inputValue()).toBe('3');
    // Issue 28 item 12: Rotate gives a new URL; the old one stops at once.
    const oldUrl = await admin.getByTestId('webhook-url').inputValue();
    await admin.getByRole('button', { name: 'Rotate' }).click();
    await admin.getByRole('dialog', { name: 'Rotate the webhook URL?' }).getByRole('button', { name: 'Confirm' }).click();
    await closePopup(admin, ui.strategy.webhookSet);
    const newUrl = await admin.getByTestId('webhook-url').inputValue();
    expect(newUrl).toMatch(/\/api\/webhook\/[A-Za-z0-9_-]{16,}$/);
    expect(newUrl).not.toBe(oldUrl);
    const alert = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not an alert' }).then((answer) => answer.status);
    expect(await alert(oldUrl)).toBe(404);
    expect(await alert(newUrl)).not.toBe(404);
    await followLink(admin, '/admin/strategies');
    await admin.getByRole('link', { name: 'Edit TYPED01' }).waitFor();
  });

  it('an admin approves a customer with a group and typed credentials; the customer is in the customer list', async () => {
    const agent = await e2e.person(AccountType.Agent, { firstName: 'Apo', lastName: 'Agent' });
    await e2e.person(AccountType.Customer, { status: AccountStatus.Pending, group: null, agentId: agent.roleId, firstName: 'Quinn', lastName: 'Queue' });
    await followLink(admin, '/customers/approval');
    await admin.getByRole('link', { name: 'Quinn Queue' }).click();
    await admin.getByRole('button', { name: 'Approve' }).waitFor();
    await choose(admin, 'Group', 'Occasion');
    await choose(admin, 'Exchange', 'Bitget');
    await typeLabelled(admin, 'API Key', 'approval-key-1');
    await typeLabelled(admin, 'API Secret', 'approval-secret-1');
    await admin.getByRole('button', { name: 'Approve' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await closePopup(admin, 'Customer approved successfully!');
    await admin.waitForURL(/\/customers\/approval$/);
    await followLink(admin, `/customers?group=${CustomerGroup.Occasion}`);
    await admin.getByRole('link', { name: 'Quinn Queue' }).waitFor();
  });

  it('an admin converts a group, and the customer is found under the new one', async () => {
    await e2e.person(AccountType.Customer, { group: CustomerGroup.Internal, firstName: 'Gina', lastName: 'Group' });
    await admin.goto('/customers');
    await admin.getByRole('button', { name: 'Convert' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Change customer group' });
    await choose(admin, 'From group', 'Internal');
    await choose(admin, 'To group', 'Vip');
    await dialog.getByRole('button', { name: 'Convert' }).click();
    await closePopup(admin, ui.strategy.groupsChanged);
    await admin.goto(`/customers?group=${CustomerGroup.Vip}`);
    await admin.getByRole('link', { name: 'Gina Group' }).waitFor();
  });

  it('an admin creates a Registration ID for an agent, and the agent creates one; the agent sees both', async () => {
    const { page: agentPage, person: agent } = await e2e.signedInPage(AccountType.Agent, { firstName: 'Reg', lastName: 'Ida' });
    await followLink(admin, `/agent/${agent.roleId}`);
    await admin.getByRole('button', { name: 'Create Registration ID' }).click();
    await closePopup(admin, ui.registrationId.created);
    const forAgent = (await admin.getByTestId('registration-id-code').textContent())?.trim() ?? '';
    expect(forAgent).toMatch(/\S{6,}/);
    await followLink(agentPage, '/agent/registrationids');
    await agentPage.getByRole('button', { name: 'Create Registration ID' }).click();
    await closePopup(agentPage, ui.registrationId.created);
    const own = (await agentPage.getByTestId('registration-id-code').textContent())?.trim() ?? '';
    await agentPage.getByRole('cell', { name: own, exact: true }).waitFor();
    await agentPage.getByRole('cell', { name: forAgent, exact: true }).waitFor();
  });

  it("an admin suspends an agent with the status control, and the agent list shows it", async () => {
    await e2e.person(AccountType.Agent, { firstName: 'Sam', lastName: 'Status' });
    await followLink(admin, '/agents');
    await admin.getByRole('link', { name: 'Sam Status' }).click();
    await choose(admin, 'Account status', 'Blocked');
    await closePopup(admin, ui.accountsSuccess.agentUpdated);
    await followLink(admin, '/agents');
    const row = admin.getByRole('row').filter({ hasText: 'Sam Status' });
    await row.getByText('Blocked', { exact: true }).waitFor();
  });
});
