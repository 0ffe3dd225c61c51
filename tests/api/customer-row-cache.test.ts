import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import type { Customer } from '../../contract/api/customer';
import { customers } from '../../server/db/schema/index';
import { filterCustomers } from '../../server/modules/customers/repository';
import { createPerson, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let agent: Person;
let customerIds: number[];

beforeAll(async () => {
  ctx = await createTestContext();
  agent = await createPerson(ctx, AccountType.Agent, { firstName: 'Ada', lastName: 'Agent' });
  const people = [await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId }), await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId })];
  customerIds = people.map((person) => person.roleId);
});
afterAll(async () => ctx?.close());

/** The agent's list as the API reads it (outside a transaction: the row cache is on). */
async function listed(): Promise<Customer[]> {
  return (await filterCustomers(ctx.deps.db, { filter: {}, agentId: agent.roleId, page: { pageIndex: 0, pageSize: 50 } })).data;
}
const byId = (rows: Customer[], id: number) => rows.find((row) => row.id === id)!;

describe('customer list rows are reused only while every row joined into them is unchanged', () => {
  it('a second read reuses the rows of the first (the same objects)', async () => {
    const first = await listed();
    const second = await listed();
    expect(first.map((row) => row.id).sort()).toEqual([...customerIds].sort());
    for (const id of customerIds) expect(byId(second, id)).toBe(byId(first, id));
    // Shared between requests, so frozen: a route writing into one fails instead of changing the next answer.
    expect(() => Object.assign(byId(second, customerIds[0]!).account, { email: 'x@example.com' })).toThrow(TypeError);
  });

  it.each([
    ['the customer row (wallet)', (id: number) => sql`update customers set current_wallet_amount = 123.45 where id = ${id}`, (row: Customer) => row.currentWalletAmount, 123.45],
    ['its account (email)', (id: number) => sql`update accounts set email = 'changed.' || ${id} || '@example.com' where id = (select account_id from customers where id = ${id})`, (row: Customer) => row.account.email, (id: number) => `changed.${id}@example.com`],
    ['its agent\'s account (name)', () => sql`update accounts set first_name = 'Bea' where id = (select account_id from agents where id = ${agent.roleId})`, (row: Customer) => row.agent?.firstName, 'Bea'],
    ['its country (name)', (id: number) => sql`update countries set name = 'Renamed land' where id = (select country_id from accounts where id = (select account_id from customers where id = ${id}))`, (row: Customer) => row.account.country?.name, 'Renamed land'],
  ] as const)('a change of %s is shown at once; the untouched row is still reused', async (what, change, shown, expected) => {
    const [changed, untouched] = customerIds as [number, number];
    const before = await listed();
    await ctx.deps.db.execute(change(changed));
    const after = await listed();
    expect(shown(byId(after, changed))).toEqual(typeof expected === 'function' ? expected(changed) : expected);
    expect(byId(after, changed)).not.toBe(byId(before, changed));
    // A change of a row the two share (the agent, the country) is a change of both.
    const shared = what.includes('agent') || what.includes('country');
    if (shared) expect(shown(byId(after, untouched))).toEqual(expected);
    else expect(byId(after, untouched)).toBe(byId(before, untouched));
  });

  it('a customer deleted since its row was kept is not listed', async () => {
    await listed();
    await ctx.deps.db.delete(customers).where(eq(customers.id, customerIds[1]!));
    expect((await listed()).map((row) => row.id)).toEqual([customerIds[0]]);
  });
});
