import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesFor } from '../../contract/access';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { WEBHOOK_BODY_LIMIT } from '../../contract/api/webhook';
import type { RouteDef } from '../../contract/route';
import { createSession } from '../../server/modules/auth/sessions';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { insertStrategy } from '../engine/fixtures';
import { guardedFetch } from '../helpers/fetch-guard';
import { createPerson, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { contractRoutes, openApiPathOf } from './contract-routes';
import { deepOrWideJson, hostileValue, jsonSchemaOf, pathSegmentOf, queryStringOf, valueOf } from './fuzz-arbitraries';

/**
 * Property: for requests generated from the contract's own schemas (valid, boundary and hostile
 * values, unknown fields, wrong types, broken bodies, no or a wrong token), every answer is a
 * non-5xx envelope with a status the OpenAPI document lists for that operation.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 50);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_612);

let ctx: TestContext;
let sandbox: RunningSandbox;
let documented: Record<string, Record<string, { responses: Record<string, unknown> }>>;
const personas = new Map<AccountType, Person>();
let strategy: { id: string; token: string };
const tally = { requests: 0, serverErrors: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false });
  ctx = await createTestContext();
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  // The personas' ids sit far above the small and boundary ids the generators favour, so a
  // generated delete or block never hits the caller itself.
  for (const table of ['accounts', 'agents', 'customers', 'employees']) {
    await ctx.deps.db.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), 1000000000)`);
  }
  for (const type of [AccountType.Admin, AccountType.Employee, AccountType.Agent, AccountType.Customer]) personas.set(type, await createPerson(ctx, type));
  strategy = await insertStrategy(ctx, { id: 'FUZZ1', tp: [{ target: 1, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 10 }] });
  documented = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json().paths;
});

afterAll(async () => {
  const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(' ');
  console.log(`contract fuzz: ${tally.requests} generated requests over ${contractRoutes.length} operations, ${tally.serverErrors} answered 5xx (${statuses})`);
  await ctx?.close();
  await sandbox?.close();
});

type Auth = 'allowed' | 'none' | 'garbage' | 'otherRole';

interface GeneratedRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  rawBody: string | undefined;
  contentType: string | undefined;
  auth: Auth;
  role: AccountType;
}

/** Known values now and then, so requests also reach records that exist. */
function withKnown(name: string, arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (name === 'token') return fc.oneof({ weight: 2, arbitrary }, { weight: 1, arbitrary: fc.constant(strategy.token) });
  if (name === 'id' || name === 'tempAccountId' || name === 'exchange') {
    const known = name === 'exchange' ? ['bybit', 'bitget', 'okx'] : [strategy.id, '1', '00000000-0000-0000-0000-000000000000'];
    return fc.oneof({ weight: 3, arbitrary }, { weight: 1, arbitrary: fc.constantFrom(...known) });
  }
  return arbitrary;
}

function requestsFor(route: RouteDef): fc.Arbitrary<GeneratedRequest> {
  const roles = rolesFor(route.access);
  const paramsSchema = route.params ? jsonSchemaOf(route.params) : undefined;
  const params = paramsSchema
    ? fc.record(Object.fromEntries(Object.entries(paramsSchema.properties ?? {}).map(([name, schema]) => [name, withKnown(name, valueOf(schema))])))
    : fc.constant(undefined);
  return fc.record({
    params,
    query: route.query ? valueOf(jsonSchemaOf(route.query)) : fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileValue }),
    body: route.body ? valueOf(jsonSchemaOf(route.body)) : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileValue }),
    rawBody: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '{"a":', 'null', '[]', '"text"', 'not json at all', '{"__proto__":{"x":1}}', '\u0000') },
      { weight: 1, arbitrary: deepOrWideJson },
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=latin1') },
    ),
    auth: roles.length === 0 ? fc.constant<Auth>('none') : fc.oneof({ weight: 10, arbitrary: fc.constant<Auth>('allowed') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'garbage', 'otherRole') }),
    role: fc.constantFrom(...(roles.length > 0 ? roles : [AccountType.Admin])),
  });
}

function urlOf(route: RouteDef, request: GeneratedRequest): string {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => pathSegmentOf(params[name]));
  return path + queryStringOf(request.query);
}

async function tokenFor(route: RouteDef, request: GeneratedRequest): Promise<string | undefined> {
  if (request.auth === 'none') return undefined;
  if (request.auth === 'garbage') return 'not-a-session-token';
  const allowed = rolesFor(route.access);
  const role = request.auth === 'otherRole' ? [AccountType.Customer, AccountType.Agent, AccountType.Employee].find((type) => !allowed.includes(type)) : request.role;
  if (role === undefined) return undefined;
  // A fresh session per request: a generated logout or password change never strands the next one.
  return (await createSession(ctx.deps.db, ctx.clock, personas.get(role)!.accountId)).token;
}

describe('every contract operation, driven by requests generated from its schemas', () => {
  it.each(contractRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s: never a 5xx, always the envelope, a documented status', async (_, route) => {
    const statuses = Object.keys(documented[openApiPathOf(route.path)]![route.method.toLowerCase()]!.responses).map(Number);
    await fc.assert(
      fc.asyncProperty(requestsFor(route), async (request) => {
        const token = await tokenFor(route, request);
        const payload = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
        const answer = await ctx.app.inject({
          method: route.method,
          url: urlOf(route, request),
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload !== undefined && request.contentType ? { 'content-type': request.contentType } : {}),
          },
          ...(payload !== undefined ? { payload } : {}),
        });
        tally.requests += 1;
        tally.byStatus.set(answer.statusCode, (tally.byStatus.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode >= 500) tally.serverErrors += 1;
        const body = answer.json() as { successful: unknown; data: unknown; error: { message?: unknown } | null };
        expect(answer.statusCode).toBeLessThan(500);
        expect(statuses).toContain(answer.statusCode);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(Object.keys(body).sort()).toEqual(['data', 'error', 'successful']);
        if (answer.statusCode === 200) {
          expect([body.successful, body.error]).toEqual([true, null]);
        } else {
          expect([body.successful, body.data]).toEqual([false, null]);
          expect(typeof body.error?.message === 'string' && body.error.message.length > 0).toBe(true);
        }
      }),
      { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
    );
  });
});

describe('the webhook, sent JSON nested deep or holding many values', () => {
  it('answers 400 with one entry-audit row per refused alert (413 past 64 KiB), never a 5xx', async () => {
    // A strategy of its own: the operations fuzzed above may have rotated or deactivated the shared one.
    const target = await insertStrategy(ctx, { id: 'FUZZ2', tp: [{ target: 1, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 10 }] });
    const audits = async () => Number((await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from entry_audits where strategy_id = ${target.id}`)).rows[0]!.n);
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(deepOrWideJson, async (payload) => {
        const before = await audits();
        const answer = await ctx.app.inject({ method: 'POST', url: target.url, headers: { 'content-type': 'application/json' }, payload });
        seen.set(answer.statusCode, (seen.get(answer.statusCode) ?? 0) + 1);
        const body = answer.json() as { successful: boolean; data: unknown; error: { message: string } | null };
        expect([answer.statusCode, Object.keys(body).sort()]).toEqual([expect.any(Number), ['data', 'error', 'successful']]);
        if (Buffer.byteLength(payload) > WEBHOOK_BODY_LIMIT) {
          expect([answer.statusCode, await audits()]).toEqual([413, before]);
        } else if (answer.statusCode !== 200) {
          expect([answer.statusCode, body.successful, body.data, await audits()]).toEqual([400, false, null, before + 1]);
          expect(body.error!.message).toMatch(/^The alert could not be understood: /);
        }
      }),
      { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
    );
    // The generator reached all three outcomes.
    expect([...seen.keys()].sort()).toEqual([200, 400, 413]);
  });
});
