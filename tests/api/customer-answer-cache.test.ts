import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import type { Customer } from '../../contract/api/customer';
import type { Paged } from '../../contract/envelope';
import { settledAnswer } from '../../server/db/settled-answers';
import { filterCustomers } from '../../server/modules/customers/repository';
import { createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, otherConnection, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let agent: Person & { token: string };
let customer: Person;
let staffToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  agent = await personWithToken(ctx, AccountType.Agent, { firstName: 'Ada', lastName: 'Agent' });
  customer = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId });
  staffToken = (await personWithToken(ctx, AccountType.Employee)).token;
});
afterAll(async () => ctx?.close());

/** The agent's list as the API reads it (outside a transaction: answers are kept). */
function listed(): Promise<Paged<Customer>> {
  return filterCustomers(ctx.deps.db, { filter: {}, agentId: agent.roleId, page: { pageIndex: 0, pageSize: 50 } });
}
const walletOf = (answer: Paged<Customer>) => answer.data.find((row) => row.id === customer.roleId)!.currentWalletAmount;


describe('whole customer list answers are reused only while nothing they show has changed', () => {
  it('a second read reuses the answer of the first, shared and frozen', async () => {
    const first = await listed();
    expect(await listed()).toBe(first);
    expect(() => Object.assign(first.paging, { totalCount: 99 })).toThrow(TypeError);
  });

  it('a change of a table no list row reads keeps the answer', async () => {
    const first = await listed();
    await ctx.deps.db.execute(sql`update strategies set status = status`);
    await ctx.deps.db.execute(sql`update orders set status = status`);
    expect(await listed()).toBe(first);
  });

  it('a change of its registration ID is shown at once', async () => {
    await ctx.deps.db.execute(sql`insert into registration_ids (code, agent_id) values ('REG-ANSWER-1', ${agent.roleId})`);
    await listed();
    await ctx.deps.db.execute(sql`update customers set registration_id_id = (select id from registration_ids where code = 'REG-ANSWER-1') where id = ${customer.roleId}`);
    expect((await listed()).data.find((row) => row.id === customer.roleId)?.registrationId).toBe('REG-ANSWER-1');
    await ctx.deps.db.execute(sql`update registration_ids set code = 'REG-ANSWER-2' where code = 'REG-ANSWER-1'`);
    expect((await listed()).data.find((row) => row.id === customer.roleId)?.registrationId).toBe('REG-ANSWER-2');
  });

  it('an answer read while a change is in flight is not kept: the change shows once committed', async () => {
    const before = walletOf(await listed());
    const writer = await otherConnection(ctx.database);
    try {
      await writer.query('begin');
      await writer.query('update customers set current_wallet_amount = $1 where id = $2', [before + 1000, customer.roleId]);
      // Uncommitted: not seen, and the answer read now must not be kept under the counter the writer moved.
      expect(walletOf(await listed())).toBe(before);
      await writer.query('commit');
      expect(walletOf(await listed())).toBe(before + 1000);
    } finally {
      await writer.end();
    }
  });

  it('a change rolled back leaves the answer as it was', async () => {
    const before = walletOf(await listed());
    const writer = await otherConnection(ctx.database);
    try {
      await writer.query('begin');
      await writer.query('update customers set current_wallet_amount = $1 where id = $2', [before + 7, customer.roleId]);
      await writer.query('rollback');
    } finally {
      await writer.end();
    }
    expect(walletOf(await listed())).toBe(before);
  });

  it('the staff list over HTTP shows a change made by another connection at its next request', async () => {
    const request = () => ctx.api<Paged<Customer>>('POST', '/api/customer/filter', { token: staffToken, body: {} });
    const first = await request();
    expect(first.status).toBe(200);
    const writer = await otherConnection(ctx.database);
    try {
      await writer.query("update accounts set last_name = 'Renamed' where id = (select account_id from customers where id = $1)", [customer.roleId]);
    } finally {
      await writer.end();
    }
    const second = await request();
    expect(second.body.data.data.find((row) => row.id === customer.roleId)?.account.lastName).toBe('Renamed');
    // The agent's own list, written from a kept answer too.
    const own = await ctx.api<Paged<Customer>>('POST', '/api/agent/customers/own/filter', { token: agent.token, body: {} });
    expect(own.status).toBe(200);
    const row = own.body.data.data.find((r) => r.id === customer.roleId)!;
    expect(row.account.lastName).toBe('Renamed');
    expect(row.apiKey).toBeNull();
    expect(row.exchangeAccountUUID).toBeNull();
  });
});

describe('requests that miss together', () => {
  const atVersion = (version: string) => async () => version;

  it('share one read of the answer, and a new version reads again', async () => {
    let reads = 0;
    const read = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { n: reads };
    };
    const answers = await Promise.all([1, 2, 3].map(() => settledAnswer(ctx.deps.db, 'test-shared', 'k', atVersion('1'), read)));
    expect(reads).toBe(1);
    expect(answers[1]).toBe(answers[0]);
    expect(await settledAnswer(ctx.deps.db, 'test-shared', 'k', atVersion('2'), read)).toEqual({ n: 2 });
  });

  it('do not keep a failed read: the next request reads again', async () => {
    let reads = 0;
    const read = async () => {
      reads += 1;
      if (reads === 1) throw new Error('database went away');
      return { n: reads };
    };
    await expect(settledAnswer(ctx.deps.db, 'test-failed', 'k', atVersion('1'), read)).rejects.toThrow('database went away');
    expect(await settledAnswer(ctx.deps.db, 'test-failed', 'k', atVersion('1'), read)).toEqual({ n: 2 });
  });

  it('read through, keeping nothing, while a change is in flight (no settled version)', async () => {
    let reads = 0;
    const read = async () => ({ n: ++reads });
    await settledAnswer(ctx.deps.db, 'test-unsettled', 'k', async () => null, read);
    await settledAnswer(ctx.deps.db, 'test-unsettled', 'k', async () => null, read);
    expect(reads).toBe(2);
  });
});
