import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, CustomerGroup, OrderStatus } from '../../contract/enums';
import { executionsOf, stopsOf, waitFor } from '../../tests/engine/fixtures';
import { guardedFetch } from '../../tests/helpers/fetch-guard';
import { createPerson, loginAs } from '../../tests/helpers/fixtures';
import { createTestContext, type TestContext } from '../../tests/helpers/test-app';
import { newToken } from '../lib/tokens';
import { sandboxMountsFor, sharedSandboxControl } from '../sandbox/index';
import type { Dispatcher } from '../trading/dispatcher';
import { useExchangeAccess } from '../trading/exchanges/for-deps';
import { startDispatcher } from '../trading/start';
import { demoCustomers } from './data';
import { LIVE_STRATEGIES, openLivePositions } from './live';
import { countryIds } from './people';
import { seedCustomer } from './seed';
import { createDemoStrategies } from './strategies';

/**
 * Issue 28 item 20: the demo has open positions. As `npm run demo` does once the app runs: the demo's
 * live Orders go through the intake, and the app's own engine opens and protects them on the sandbox
 * the app serves under /sandbox.
 */
let ctx: TestContext;
let dispatcher: Dispatcher;
let dataDir: string;
let adminToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'demo-live-'));
  ctx = await createTestContext({ app: { extraPlugins: sandboxMountsFor({ exchangeMode: 'sandbox', dataDir }, { SANDBOX_CONTROL_TOKEN: newToken() }, () => undefined) } });
  const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  useExchangeAccess(ctx.deps, { sandboxUrl: `${baseUrl}/sandbox`, fetchImplementation: guardedFetch });
  const admin = await createPerson(ctx, AccountType.Admin);
  adminToken = await loginAs(ctx, admin);
  const agent = await createPerson(ctx, AccountType.Agent);
  await createDemoStrategies(ctx.deps, admin.accountId);
  const traded = new Set(LIVE_STRATEGIES.flatMap((strategy) => (strategy.form.groups as Array<{ group: CustomerGroup }>).map((g) => g.group)));
  const customers = demoCustomers()
    .filter((customer) => customer.status === AccountStatus.Active && customer.group !== null && traded.has(customer.group))
    .slice(0, 4);
  const countries = await countryIds(ctx.deps, customers.map((customer) => customer.country));
  for (const [n, customer] of customers.entries()) await seedCustomer(ctx.deps, admin.accountId, agent.roleId, customer, countries.get(customer.country)!, n);
  dispatcher = await startDispatcher(ctx.deps, ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000 } });
}, 180_000);
afterAll(async () => {
  await dispatcher?.stop();
  await ctx?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo live positions', () => {
  it('are opened by the running engine on the sandbox, each protected by its stop, and their Orders stay Active', async () => {
    const orderIds = await openLivePositions(ctx.deps);
    expect(orderIds).toHaveLength(LIVE_STRATEGIES.length);
    const rows = await waitFor(
      'every live entry answered and every position protected',
      async () => {
        const all = (await Promise.all(orderIds.map((id) => executionsOf(ctx, id)))).flat();
        const settled = all.every((row) => ['failed', 'skipped'].includes(row.state) || (row.state === 'open' && row.protected_at !== null));
        return all.length > 0 && settled ? all : undefined;
      },
      90_000,
    );
    const open = rows.filter((row) => row.state === 'open');
    expect(open.length).toBeGreaterThanOrEqual(2);
    const control = sharedSandboxControl();
    for (const row of open) {
      const customer = await ctx.api('GET', `/api/customer/${row.customer_id}`, { token: adminToken });
      const account = control.account(customer.body.data.exchangeAccountUUID);
      const strategy = LIVE_STRATEGIES.find((s) => orderIds[LIVE_STRATEGIES.indexOf(s)] === row.order_id)!;
      expect(account.positions.some((position) => position.symbol === strategy.symbol && position.size > 0), `position of execution ${row.id}`).toBe(true);
      expect(stopsOf(account, strategy.symbol).length, `stop of execution ${row.id}`).toBeGreaterThan(0);
    }
    const listed = await ctx.api('POST', '/api/order/search', { token: adminToken, body: { filter: [] } });
    const live = listed.body.data.data.filter((order: { id: number }) => orderIds.includes(order.id));
    expect(live.map((order: { status: number; closing: boolean }) => [order.status, order.closing])).toEqual(orderIds.map(() => [OrderStatus.Active, false]));
  }, 150_000);
});
