import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessAreas, isAllowed, isPublic, rolesFor } from '../../contract/access';
import { AccountType, Exchange } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { installAccessControl } from '../../server/http/access-hook';
import { countryId, createPerson, personWithToken, uniqueEmail, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { specRoutes } from './spec-routes';

/**
 * Walks every registered /api route x every kind of caller x (own record, someone else's) and
 * compares the answer with the rule the route declares (contract/access.ts, ARCHITECTURE 5).
 */
type Caller = 'anonymous' | 'customer' | 'agent' | 'employee' | 'admin';
const callerTypes: Record<Exclude<Caller, 'anonymous'>, AccountType> = {
  customer: AccountType.Customer,
  agent: AccountType.Agent,
  employee: AccountType.Employee,
  admin: AccountType.Admin,
};

let ctx: TestContext;
const people = {} as Record<Exclude<Caller, 'anonymous'>, Person & { token: string }>;
let others: { customer: Person; agent: Person; employee: Person };

beforeAll(async () => {
  ctx = await createTestContext();
  const agent = await personWithToken(ctx, AccountType.Agent);
  people.agent = agent;
  people.customer = await personWithToken(ctx, AccountType.Customer, { agentId: agent.roleId });
  people.employee = await personWithToken(ctx, AccountType.Employee);
  people.admin = await personWithToken(ctx, AccountType.Admin);
  const otherAgent = await createPerson(ctx, AccountType.Agent);
  others = {
    agent: otherAgent,
    customer: await createPerson(ctx, AccountType.Customer, { agentId: otherAgent.roleId }),
    employee: await createPerson(ctx, AccountType.Employee),
  };
});
afterAll(async () => ctx?.close());

/** Fills path parameters with records that belong to someone else than the caller. */
function someoneElsesUrl(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (name === 'accountId') return String(others.customer.accountId);
    if (name === 'agentId') return String(others.agent.roleId);
    if (name === 'token') return 'not-a-real-webhook-token';
    if (name === 'tempAccountId') return '00000000-0000-4000-8000-000000000000';
    if (name === 'exchange') return 'bybit';
    if (/\/agent\//.test(url)) return String(others.agent.roleId);
    if (/\/employee\//.test(url)) return String(others.employee.roleId);
    if (/\/customer\//.test(url)) return String(others.customer.roleId);
    if (/\/security\/password\/reset\//.test(url)) return String(others.customer.accountId);
    if (/\/strategy\//.test(url)) return 'NO-SUCH-STRATEGY';
    return '999999';
  });
}

/** Routes whose side effect would end the caller's session: walked last. */
const sessionEnding = (url: string) => url === '/api/security/logout';

describe('the role table', () => {
  it('gives agents and customers their own record (runs before the walk, which ends sessions)', async () => {
    const me = await ctx.api('GET', '/api/account', { token: people.customer.token });
    expect(me.body.data.id).toBe(people.customer.accountId);
    const agentMe = await ctx.api('GET', '/api/account', { token: people.agent.token });
    expect(agentMe.body.data.id).toBe(people.agent.accountId);
  });

  it('is enforced on every /api route for every kind of caller', async () => {
    const routes = [...ctx.app.accessTable].sort((a, b) => Number(sessionEnding(a.url)) - Number(sessionEnding(b.url)));
    expect(routes.length).toBeGreaterThan(10);
    const mismatches: string[] = [];
    for (const route of routes) {
      const url = someoneElsesUrl(route.url);
      for (const caller of ['anonymous', 'customer', 'agent', 'employee', 'admin'] as Caller[]) {
        const accountType = caller === 'anonymous' ? undefined : callerTypes[caller];
        const token = caller === 'anonymous' ? undefined : people[caller].token;
        const result = await ctx.api(route.method, url, { token, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });
        const label = `${route.method} ${route.url} as ${caller} -> ${result.status}`;
        expect(result.body, label).toHaveProperty('successful');
        if (isPublic(route.access)) {
          if (result.status === 401) mismatches.push(`${label} (public route asked for a token)`);
          continue;
        }
        if (!isAllowed(route.access, accountType)) {
          const expected = caller === 'anonymous' ? 401 : 403;
          if (result.status !== expected) mismatches.push(`${label} (expected ${expected})`);
          continue;
        }
        if (result.status === 401 || result.status === 403) mismatches.push(`${label} (role is allowed)`);
        // Agents and customers never reach someone else's record through an id in the path.
        const hasRecordParam = /:(id|agentId|accountId)\b/.test(route.url);
        if (hasRecordParam && (caller === 'agent' || caller === 'customer') && result.status < 300) {
          mismatches.push(`${label} (someone else's record answered)`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('implements every endpoint of spec section 7 with the roles of ARCHITECTURE section 5', () => {
    const declared = new Map(ctx.app.accessTable.map((r) => [`${r.method} ${r.url}`, [...rolesFor(r.access)].sort()]));
    const problems: string[] = [];
    for (const spec of specRoutes) {
      const roles = declared.get(spec.route);
      if (!roles) {
        problems.push(`${spec.route}: not implemented`);
        continue;
      }
      if (spec.exact && JSON.stringify(roles) !== JSON.stringify([...spec.exact].sort())) problems.push(`${spec.route}: roles ${roles} instead of ${spec.exact}`);
      for (const role of spec.atLeast ?? []) if (!roles.includes(role)) problems.push(`${spec.route}: role ${role} should be allowed`);
      for (const role of spec.never ?? []) if (roles.includes(role)) problems.push(`${spec.route}: role ${role} must not be allowed`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses to register an /api route that declares no rule', async () => {
    const bare = Fastify();
    installAccessControl(bare, ctx.deps);
    expect(() => bare.get('/api/forgotten', async () => ({}))).toThrow(/declares no access rule/);
    await bare.close();
  });

  it('declares the public routes ARCHITECTURE 5 lists as public and nothing else', () => {
    const publicRoutes = ctx.app.accessTable.filter((r) => isPublic(r.access)).map((r) => `${r.method} ${r.url}`);
    const allowed = [
      /^POST \/api\/security\/(login|email\/requestverification|email\/verify|password\/forgot|password\/verify|registrationid\/verify|register)$/,
      /^POST \/api\/country\/search$/,
      /^GET \/api\/security\/:exchange\/oauth\//,
      /^(GET|POST) \/api\/webhook\/:token$/,
      /^GET \/api\/notifications$/,
    ];
    for (const route of publicRoutes) expect(allowed.some((pattern) => pattern.test(route)), route).toBe(true);
    expect(rolesFor('public')).toEqual([]);
    expect(accessAreas.notifications).toEqual([AccountType.Admin, AccountType.Employee]);
  });
});

describe('the grey areas of the role table, decided (README: Security)', () => {
  it("shows employees every agent's Registration IDs, but not the code of a live (pending) one; admins and the agent see it", async () => {
    const agent = await personWithToken(ctx, AccountType.Agent);
    const employee = await personWithToken(ctx, AccountType.Employee);
    const admin = await personWithToken(ctx, AccountType.Admin);
    const live = (await ctx.api('POST', '/api/registrationid', { token: agent.token })).body.data as { id: number; code: string };
    const used = (await ctx.api('POST', '/api/registrationid', { token: agent.token })).body.data as { id: number; code: string };
    await ctx.handle.pool.query('update registration_ids set used_at = now() where id = $1', [used.id]);
    const search = (token: string, filter: unknown[] = []) =>
      ctx.api('POST', '/api/registrationid/search', { token, body: { filter: [{ name: 'agentId', value: agent.roleId }, ...filter] } });
    const codesSeenBy = async (token: string) =>
      Object.fromEntries(((await search(token)).body.data.data as Array<{ id: number; code: string }>).map((row) => [row.id, row.code]));
    expect(await codesSeenBy(admin.token)).toEqual({ [live.id]: live.code, [used.id]: used.code });
    expect(await codesSeenBy(employee.token)).toEqual({ [live.id]: `********${live.code.slice(-4)}`, [used.id]: used.code });
    const own = await ctx.api('POST', '/api/registrationid/search', { token: agent.token, body: { filter: [] } });
    expect(own.body.data.data.map((row: { code: string }) => row.code).sort()).toEqual([live.code, used.code].sort());
    // Nor can an employee spell a live code out with the code filter: it matches whole codes only.
    const part = await search(employee.token, [{ name: 'code', value: live.code.slice(0, 6) }]);
    expect(part.body.data.paging.totalCount).toBe(0);
    const whole = await search(employee.token, [{ name: 'code', value: live.code.toLowerCase() }]);
    expect(whole.body.data.data.map((row: { id: number; code: string }) => [row.id, row.code])).toEqual([[live.id, `********${live.code.slice(-4)}`]]);
    expect((await search(admin.token, [{ name: 'code', value: live.code.slice(0, 6) }])).body.data.paging.totalCount).toBe(1);
  });

  it("leaves a customer's profit share to admins: an employee's new customer gets the default fee, and a fee sent by an employee is refused", async () => {
    const employee = await personWithToken(ctx, AccountType.Employee);
    const admin = await personWithToken(ctx, AccountType.Admin);
    const agent = await createPerson(ctx, AccountType.Agent);
    const customerFor = async (token: string, fee?: number) => {
      const account = await ctx.api('POST', '/api/account', {
        token,
        body: { firstName: 'Fee', lastName: 'Person', email: uniqueEmail('fee'), age: 40, phone: '+6591112222', countryId: await countryId(ctx, 'SG'), gender: 1, password: 'a long password', accountType: AccountType.Customer },
      });
      expect(account.status).toBe(200);
      const body = {
        accountId: account.body.data.id, platformType: Exchange.Bybit, apiKey: 'K'.repeat(18), apiSecret: 'S'.repeat(36), exchangeAccountUUID: 'uid-1', agentId: agent.roleId,
        ...(fee === undefined ? {} : { profitSharePct: fee }),
      };
      return ctx.api('POST', '/api/customer', { token, body });
    };
    const refused = await customerFor(employee.token, 0);
    expect([refused.status, refused.body.error?.message]).toEqual([403, messages.profitShareAdminsOnly]);
    const byEmployee = await customerFor(employee.token);
    expect([byEmployee.status, byEmployee.body.data.profitSharePct]).toEqual([200, (await ctx.api('GET', '/api/settings/earnings', { token: admin.token })).body.data.defaultProfitSharePct]);
    const byAdmin = await customerFor(admin.token, 0);
    expect([byAdmin.status, byAdmin.body.data.profitSharePct]).toEqual([200, 0]);
  });
});
