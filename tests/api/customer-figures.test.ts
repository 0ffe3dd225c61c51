import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, SortType } from '../../contract/enums';
import type { Customer, CustomerSort } from '../../contract/api/customer';
import type { Paged } from '../../contract/envelope';
import { filterCustomers } from '../../server/modules/customers/repository';
import { createPerson, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let agent: Person;
let other: Person;
let mine: [Person, Person];
let elsewhere: Person;

beforeAll(async () => {
  ctx = await createTestContext();
  agent = await createPerson(ctx, AccountType.Agent);
  other = await createPerson(ctx, AccountType.Agent);
  mine = [await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId }), await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId })];
  elsewhere = await createPerson(ctx, AccountType.Customer, { agentId: other.roleId });
});
afterAll(async () => ctx?.close());

/** The agent's list as the API reads it (outside a transaction: answers are kept). */
function listed(sort?: CustomerSort, pageSize = 50): Promise<Paged<Customer>> {
  return filterCustomers(ctx.deps.db, { filter: {}, sort, agentId: agent.roleId, page: { pageIndex: 0, pageSize } });
}
const setWallet = (customer: Person, amount: number) => ctx.deps.db.execute(sql`update customers set current_wallet_amount = ${amount} where id = ${customer.roleId}`);
const rowOf = (answer: Paged<Customer>, customer: Person) => answer.data.find((row) => row.id === customer.roleId)!;

describe("a customer's wallet and transaction count (its figures) written elsewhere", () => {
  it('moves a counter of its own: every other column of customers moves the lists counter (a new column must be named)', async () => {
    const { rows } = await ctx.deps.db.execute<{ trigger: string; columns: string[] }>(sql`
      select t.tgname as trigger, array(select a.attname::text from pg_attribute a where a.attrelid = t.tgrelid and a.attnum = any(t.tgattr) order by a.attname) as columns
      from pg_trigger t where t.tgrelid = 'customers'::regclass and t.tgname in ('customers_list_columns_changed', 'customers_figures_changed')`);
    const { rows: all } = await ctx.deps.db.execute<{ name: string }>(sql`
      select attname::text as name from pg_attribute where attrelid = 'customers'::regclass and attnum > 0 and not attisdropped order by attname`);
    const byTrigger = Object.fromEntries(rows.map((row) => [row.trigger, row.columns]));
    expect(byTrigger.customers_figures_changed).toEqual(['current_wallet_amount', 'total_transactions']);
    expect([...byTrigger.customers_list_columns_changed!, ...byTrigger.customers_figures_changed!].sort()).toEqual(all.map((column) => column.name));
  });

  it("keeps a page that does not show that customer (the same answer), and shows a page's own customer's new figures", async () => {
    const first = await listed();
    await setWallet(elsewhere, 777);
    expect(await listed()).toBe(first);
    await setWallet(mine[0], 4321.5);
    await ctx.deps.db.execute(sql`update customers set total_transactions = total_transactions + 3 where id = ${mine[1].roleId}`);
    const after = await listed();
    expect(rowOf(after, mine[0]).currentWalletAmount).toBe(4321.5);
    expect(rowOf(after, mine[1]).totalTransactions).toBe(rowOf(first, mine[1]).totalTransactions + 3);
  });

  it('makes a page sorted by wallet stale, even when the customer who changed is not on it', async () => {
    const byWallet: CustomerSort = { name: 'currentWalletAmount', type: SortType.Descending };
    await setWallet(mine[0], 10);
    await setWallet(mine[1], 20);
    expect((await listed(byWallet, 1)).data.map((row) => row.id)).toEqual([mine[1].roleId]);
    await setWallet(mine[0], 30);
    expect((await listed(byWallet, 1)).data.map((row) => row.id)).toEqual([mine[0].roleId]);
  });

  it('still makes a page stale when another column of the customer changes', async () => {
    const first = await listed();
    await ctx.deps.db.execute(sql`update customers set referral_code = 'REF-FIGURES' where id = ${mine[0].roleId}`);
    const after = await listed();
    expect(after).not.toBe(first);
    expect(rowOf(after, mine[0]).referralCode).toBe('REF-FIGURES');
  });
});
