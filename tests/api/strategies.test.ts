import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountType, AmountType, CustomerGroup, OrderEntryType, OrderStatus } from '../../contract/enums';
import { validation } from '../../contract/messages';
import type { Db } from '../../server/db/client';
import { orders, staffActions, strategies } from '../../server/db/schema/index';
import { sha256 } from '../../server/lib/tokens';
import { personWithToken, createPerson } from '../helpers/fixtures';
import { withNotificationsHeld } from '../helpers/notifications';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { guardedFetch } from '../helpers/fetch-guard';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';

let ctx: TestContext;
let sandbox: RunningSandbox;
let admin: string;
let employee: string;
let agent: string;

/** A complete, valid strategy form (Partial mode, trailing stop on). */
function validBody(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    symbol: 'BTCUSDT',
    groups: [{ group: CustomerGroup.Gold, investAmount: { type: AmountType.Dollar, amount: 100 } }],
    entryDirection: 1,
    leverage: 10,
    positionMode: 1,
    takeProfitType: AmountType.Percent,
    takeProfitMode: 2,
    tp1: { targetLevel: 1, closeVolume: 50 },
    tp2: { targetLevel: 2, closeVolume: 30 },
    tp3: { targetLevel: 3, closeVolume: 0 },
    stopLoss: { type: AmountType.Percent, amount: 2 },
    advanceStopLoss: true,
    trailingStop: true,
    positionActivation: { type: AmountType.Percent, amount: 1.5 },
    positionClose: { type: AmountType.Percent, amount: 0.5 },
    exclusiveCustomerId: null,
    ...overrides,
  };
}

/** Waits until the app's token -> strategy snapshot answers `token` from memory (a lookup that reads the database throws). */
async function waitForSnapshotOf(token: string): Promise<void> {
  const noDatabase = new Proxy({}, { get: () => { throw new Error('the lookup read the database'); } }) as Db;
  await vi.waitFor(async () => expect(await ctx.deps.intake.strategies.find(noDatabase, token)).toBeDefined(), { timeout: 30_000 });
}

/** Each create one second after the previous one, so "newest first" is well defined. */
const create = (body: unknown, token = admin) => {
  ctx.clock.advance(1000);
  return ctx.api('POST', '/api/strategy', { token, body });
};

beforeAll(async () => {
  ctx = await createTestContext();
  sandbox = await startSandbox({ randomWalk: false });
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  agent = (await personWithToken(ctx, AccountType.Agent)).token;
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

describe('POST /api/strategy', () => {
  it('creates an Active strategy and answers its id and webhook URL; GET shows every field', async () => {
    const created = await create(validBody('BTC001'));
    expect(created.status).toBe(200);
    const { id, webhookUrl } = created.body.data;
    expect(id).toBe('BTC001');
    const token = new RegExp(`^${ctx.config.publicUrl}/api/webhook/([A-Za-z0-9_-]+)$`).exec(webhookUrl)?.[1];
    expect(token).toBeDefined();
    expect(Buffer.from(token!, 'base64url').length).toBeGreaterThanOrEqual(16);
    const got = await ctx.api('GET', '/api/strategy/BTC001', { token: employee });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id: 'BTC001',
      symbol: 'BTCUSDT',
      groups: [{ group: CustomerGroup.Gold, investAmount: { type: AmountType.Dollar, amount: 100 } }],
      entryDirection: 1,
      leverage: 10,
      positionMode: 1,
      takeProfitType: AmountType.Percent,
      takeProfitMode: 2,
      tp1: { targetLevel: 1, closeVolume: 50 },
      tp2: { targetLevel: 2, closeVolume: 30 },
      tp3: { targetLevel: 3, closeVolume: 20 },
      stopLoss: { type: AmountType.Percent, amount: 2 },
      advanceStopLoss: true,
      trailingStop: true,
      positionActivation: { type: AmountType.Percent, amount: 1.5 },
      positionClose: { type: AmountType.Percent, amount: 0.5 },
      status: 1,
      exclusiveCustomerId: null,
      exclusiveCustomer: null,
      // Employees may not trade: they see that the webhook exists, not the URL that trades.
      webhookUrl: null,
      hasWebhook: true,
      win: 0,
      loss: 0,
      datetimeInserted: expect.any(String),
      datetimeUpdated: expect.any(String),
    });
    const asAdmin = await ctx.api('GET', '/api/strategy/BTC001', { token: admin });
    expect(asAdmin.body.data).toEqual({ ...got.body.data, webhookUrl, hasWebhook: true });
    const [log] = await ctx.deps.db.select().from(staffActions).where(eq(staffActions.targetId, 'BTC001'));
    expect(log).toMatchObject({ action: 'create', targetType: 'strategy' });
  });

  it('normalises TradingView’s .P suffix and sets Full mode volumes to 100/0/0 with trailing off cleared', async () => {
    const created = await create(
      validBody('ETH-FULL', {
        symbol: 'ethusdt.P',
        takeProfitMode: 1,
        tp2: { targetLevel: 5, closeVolume: 10 },
        trailingStop: false,
        positionActivation: { type: 3, amount: 50 },
      }),
    );
    expect(created.status).toBe(200);
    const got = (await ctx.api('GET', '/api/strategy/ETH-FULL', { token: admin })).body.data;
    expect(got.symbol).toBe('ETHUSDT');
    expect([got.tp1, got.tp2, got.tp3]).toEqual([
      { targetLevel: 1, closeVolume: 100 },
      { targetLevel: null, closeVolume: 0 },
      { targetLevel: null, closeVolume: 0 },
    ]);
    expect([got.positionActivation, got.positionClose]).toEqual([
      { type: null, amount: null },
      { type: null, amount: null },
    ]);
  });

  it('refuses a taken id with 409 and a symbol no enabled exchange trades', async () => {
    const again = await create(validBody('BTC001'));
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('Strategy ID BTC001 is already taken; choose another Strategy ID');
    const unknown = await create(validBody('NOPE1', { symbol: 'NOPEUSDT' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toBe('Symbol/Token NOPEUSDT is not traded on Bitget or Bybit; use a USDT perpetual such as BTCUSDT');
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['symbol', { symbol: '  ' }, `body.symbol: ${validation.symbolRequired}`],
    ['strategy id', { id: '' }, `body.id: ${validation.strategyIdRequired}`],
    ['leverage', { leverage: null }, `body.leverage: ${validation.leverageRequired}`],
    ['position mode', { positionMode: '' }, `body.positionMode: ${validation.selectOption}`],
    ['TP1 target', { tp1: { targetLevel: '', closeVolume: 50 } }, `body.tp1.targetLevel: ${validation.takeProfitRequired}`],
    ['stop loss', { stopLoss: { type: 3, amount: null } }, `body.stopLoss.amount: ${validation.stopLossRequired}`],
    ['partial TP2 target', { tp2: { targetLevel: null, closeVolume: 30 } }, `body.takeProfitMode: ${validation.allTpLevelsRequired}`],
    ['partial TP3 target', { tp3: { targetLevel: null, closeVolume: 0 } }, `body.takeProfitMode: ${validation.allTpLevelsRequired}`],
    ['partial TP1 volume', { tp1: { targetLevel: 1, closeVolume: null } }, `body.takeProfitMode: ${validation.allTpLevelsRequired}`],
    ['partial TP2 volume', { tp2: { targetLevel: 2 } }, `body.takeProfitMode: ${validation.allTpLevelsRequired}`],
    ['TP1 + TP2 above 100', { tp1: { targetLevel: 1, closeVolume: 60 }, tp2: { targetLevel: 2, closeVolume: 41 } }, `body.tp2.closeVolume: ${validation.enterCorrectValues}`],
    ['trailing activation', { positionActivation: { type: 3, amount: null } }, `body.positionActivation: ${validation.activationRequired}`],
    ['trailing close', { positionClose: null }, `body.positionClose: ${validation.positionCloseRequired}`],
    ['close above 10 %', { positionClose: { type: 3, amount: 10.5 } }, `body.positionClose.amount: ${validation.valueBetween}`],
    ['close below 0.01 %', { positionClose: { type: 3, amount: 0.005 } }, `body.positionClose.amount: ${validation.valueBetween}`],
    ['close in $ above 10 while activation is %', { positionClose: { type: 1, amount: 25 } }, `body.positionClose.amount: ${validation.valueBetween}`],
    ['activation above 10 %', { positionActivation: { type: 3, amount: 11 } }, `body.positionActivation.amount: ${validation.valueBetween}`],
    ['group invest amount', { groups: [{ group: 1, investAmount: { type: 1, amount: '' } }] }, `body.groups.0.investAmount.amount: ${validation.investRequired}`],
    ['group invest type % (neither $ nor quantity)', { groups: [{ group: 1, investAmount: { type: 3, amount: 5 } }] }, `body.groups.0.investAmount.type: ${validation.investRequired}`],
    ['exclusive customer', {
      groups: [
        { group: 2, investAmount: { type: 1, amount: 10 } },
        { group: 5, investAmount: { type: 2, amount: 0.01 } },
      ],
    }, `body.exclusiveCustomerId: ${validation.selectOption}`],
    ['exclusive without internal', {
      groups: [{ group: 5, investAmount: { type: 2, amount: 0.01 } }],
      exclusiveCustomerId: 1,
    }, 'body.groups: Exclusive can be chosen only together with Internal'],
    ['no group', { groups: [] }, 'body.groups: Choose at least one customer group'],
    ['the same group twice', {
      groups: [
        { group: 1, investAmount: { type: 1, amount: 10 } },
        { group: 1, investAmount: { type: 2, amount: 1 } },
      ],
    }, 'body.groups.1.group: Each group can be chosen only once'],
    ['leverage above 200', { leverage: 201 }, 'body.leverage: Leverage must be a whole number from 1 to 200'],
  ];
  it.each(cases)('refuses a missing or wrong %s with the spec message', async (_name, overrides, message) => {
    const answer = await create(validBody('BAD1', overrides));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ successful: false, data: null, error: { message } });
  });

  it('accepts $ activation with a $ close above 10, and TP1 + TP2 = 100 (TP3 0)', async () => {
    const ok = await create(
      validBody('DOLLAR1', {
        positionActivation: { type: 1, amount: 150 },
        positionClose: { type: 1, amount: 25 },
        tp1: { targetLevel: 1, closeVolume: 70 },
        tp2: { targetLevel: 2, closeVolume: 30 },
      }),
    );
    expect(ok.status).toBe(200);
    const got = (await ctx.api('GET', '/api/strategy/DOLLAR1', { token: admin })).body.data;
    expect(got.tp3).toEqual({ targetLevel: 3, closeVolume: 0 });
    expect(got.positionClose).toEqual({ type: 1, amount: 25 });
  });

  it('takes an Exclusive customer only with Internal and only from the Exclusive group', async () => {
    const exclusive = await createPerson(ctx, AccountType.Customer, { group: CustomerGroup.Exclusive, firstName: 'Ex', lastName: 'Clusive' });
    const gold = await createPerson(ctx, AccountType.Customer, { group: CustomerGroup.Gold });
    const groups = [
      { group: 2, investAmount: { type: 1, amount: 10 } },
      { group: 5, investAmount: { type: 2, amount: 0.01 } },
    ];
    const wrong = await create(validBody('EXC1', { groups, exclusiveCustomerId: gold.roleId }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toBe('The exclusive customer must be a customer of the Exclusive group');
    const right = await create(validBody('EXC1', { groups, exclusiveCustomerId: exclusive.roleId }));
    expect(right.status).toBe(200);
    const got = (await ctx.api('GET', '/api/strategy/EXC1', { token: admin })).body.data;
    expect(got.exclusiveCustomer).toEqual({ id: exclusive.roleId, firstName: 'Ex', lastName: 'Clusive' });
    expect(got.groups).toEqual(groups);
    // PATCH without exclusiveCustomerId keeps the exclusive customer while Exclusive stays chosen...
    const stopLoss = { type: 3, amount: 3 };
    const kept = await ctx.api('PATCH', '/api/strategy/EXC1', { token: admin, body: { groups, stopLoss } });
    expect(kept.body.data.exclusiveCustomerId).toBe(exclusive.roleId);
    // ...and dropping Exclusive clears it.
    const cleared = await ctx.api('PATCH', '/api/strategy/EXC1', { token: admin, body: { groups: [groups[0]], stopLoss } });
    expect([cleared.body.data.exclusiveCustomerId, cleared.body.data.exclusiveCustomer]).toEqual([null, null]);
    const again = await ctx.api('PATCH', '/api/strategy/EXC1', { token: admin, body: { groups, stopLoss } });
    expect(again.body.error?.message).toBe(`exclusiveCustomerId: ${validation.selectOption}`);
  });

  it('is for admins only; employees read, agents and anonymous callers do neither', async () => {
    expect((await create(validBody('EMP1'), employee)).status).toBe(403);
    expect((await ctx.api('GET', '/api/strategy/BTC001', { token: agent })).status).toBe(403);
    expect((await ctx.api('GET', '/api/strategy/BTC001')).status).toBe(401);
    expect((await ctx.api('GET', '/api/strategy/NOSUCH', { token: admin })).body).toEqual({
      successful: false,
      data: null,
      error: { message: 'Strategy not found' },
    });
  });
});

describe('PATCH /api/strategy/:id', () => {
  it('changes only groups and stop loss, and logs the change', async () => {
    const answer = await ctx.api('PATCH', '/api/strategy/BTC001', {
      token: admin,
      body: {
        symbol: 'ETHUSDT',
        leverage: 50,
        groups: [
          { group: 3, investAmount: { type: 2, amount: 0.5 } },
          { group: 1, investAmount: { type: 1, amount: 250 } },
        ],
        stopLoss: { type: 1, amount: 300 },
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.symbol).toBe('BTCUSDT');
    expect(answer.body.data.leverage).toBe(10);
    expect(answer.body.data.stopLoss).toEqual({ type: 1, amount: 300 });
    expect(answer.body.data.groups).toEqual([
      { group: 1, investAmount: { type: 1, amount: 250 } },
      { group: 3, investAmount: { type: 2, amount: 0.5 } },
    ]);
    const logs = await ctx.deps.db.select().from(staffActions).where(eq(staffActions.targetId, 'BTC001'));
    expect(logs.map((l) => l.action)).toEqual(['create', 'update']);
  });

  it('validates with the same rules and refuses employees and unknown ids', async () => {
    const bad = await ctx.api('PATCH', '/api/strategy/BTC001', { token: admin, body: { groups: [{ group: 1, investAmount: { type: 1 } }], stopLoss: { type: 3, amount: 1 } } });
    expect(bad.body.error?.message).toBe(`body.groups.0.investAmount.amount: ${validation.investRequired}`);
    const noStop = await ctx.api('PATCH', '/api/strategy/BTC001', { token: admin, body: { groups: [{ group: 1, investAmount: { type: 1, amount: 5 } }], stopLoss: null } });
    expect(noStop.body.error?.message).toBe(`body.stopLoss.amount: ${validation.stopLossRequired}`);
    const body = { groups: [{ group: 1, investAmount: { type: 1, amount: 5 } }], stopLoss: { type: 3, amount: 1 } };
    expect((await ctx.api('PATCH', '/api/strategy/BTC001', { token: employee, body })).status).toBe(403);
    expect((await ctx.api('PATCH', '/api/strategy/NOSUCH', { token: admin, body })).status).toBe(404);
  });
});

describe('search and sorting', () => {
  beforeAll(async () => {
    await create(validBody('SOL-A', { symbol: 'SOLUSDT' }));
    await create(validBody('XRP-A', { symbol: 'XRPUSDT' }));
  });

  it('filters by id and symbol (contains, any case), newest first, paged', async () => {
    const all = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [], pageSize: 2, pageIndex: 0 } });
    expect(all.body.data.paging).toEqual({ totalCount: 6, pageIndex: 0, pageSize: 2 });
    expect(all.body.data.data.map((s: { id: string }) => s.id)).toEqual(['XRP-A', 'SOL-A']);
    const last = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [], pageSize: 2, pageIndex: 2 } });
    expect(last.body.data.data.map((s: { id: string }) => s.id)).toEqual(['ETH-FULL', 'BTC001']);
    const beyond = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [], pageSize: 2, pageIndex: 3 } });
    expect(beyond.body.data).toEqual({ data: [], paging: { totalCount: 6, pageIndex: 3, pageSize: 2 } });
    const bySymbol = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [{ name: 'symbol', value: 'sol' }] } });
    expect(bySymbol.body.data.data.map((s: { id: string }) => s.id)).toEqual(['SOL-A']);
    const byId = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [{ name: 'id', value: 'btc0' }] } });
    expect(byId.body.data.data.map((s: { id: string }) => s.id)).toEqual(['BTC001']);
    const tooBig = await ctx.api('POST', '/api/strategy/search', { token: employee, body: { filter: [], pageSize: 101 } });
    expect(tooBig.body.error?.message).toBe('body.pageSize: pageSize must be at most 100');
  });

  it('sorts by symbol ascending (1) and descending (2)', async () => {
    const asc = await ctx.api('POST', '/api/strategy/sorting/symbol', { token: employee, body: { pageSize: 10, pageIndex: 0, type: 1 } });
    expect(asc.body.data.data.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT']);
    const desc = await ctx.api('POST', '/api/strategy/sorting/symbol', { token: employee, body: { pageSize: 2, pageIndex: 0, type: 2 } });
    expect(desc.body.data.data.map((s: { symbol: string }) => s.symbol)).toEqual(['XRPUSDT', 'SOLUSDT']);
    expect(desc.body.data.paging.totalCount).toBe(6);
    const wrongType = await ctx.api('POST', '/api/strategy/sorting/symbol', { token: employee, body: { type: 3 } });
    expect(wrongType.body.error?.message).toBe('body.type: type must be 1 (ascending) or 2 (descending)');
  });
});

describe('win/loss, delete and webhook rotation', () => {
  it('counts wins and losses from the strategy’s orders', async () => {
    await ctx.deps.db.insert(orders).values([
      { strategyId: 'SOL-A', side: 1, entryType: OrderEntryType.Api, status: OrderStatus.Win },
      { strategyId: 'SOL-A', side: 1, entryType: OrderEntryType.Api, status: OrderStatus.Win },
      { strategyId: 'SOL-A', side: 2, entryType: OrderEntryType.Manual, status: OrderStatus.Loss },
      { strategyId: 'SOL-A', side: 2, entryType: OrderEntryType.Manual, status: OrderStatus.Active },
    ]);
    const got = (await ctx.api('GET', '/api/strategy/SOL-A', { token: employee })).body.data;
    expect([got.win, got.loss]).toEqual([2, 1]);
  });

  it('refuses to delete a strategy with an open order, then deletes it once closed', async () => {
    const refused = await ctx.api('DELETE', '/api/strategy/SOL-A', { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe('This strategy has an open order. Close the order (Order & Alert) before deleting the strategy.');
    expect((await ctx.api('DELETE', '/api/strategy/SOL-A', { token: employee })).status).toBe(403);
    await ctx.deps.db.update(orders).set({ status: OrderStatus.Loss }).where(eq(orders.strategyId, 'SOL-A'));
    const before = (await ctx.deps.db.select().from(strategies).where(eq(strategies.id, 'SOL-A')))[0]!;
    expect(before.webhookTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const webhookToken = ((await ctx.api('GET', '/api/strategy/SOL-A', { token: admin })).body.data.webhookUrl as string).split('/').at(-1)!;
    await waitForSnapshotOf(webhookToken);
    // Its URL dies with the answer, not when the deletion's notification reaches the webhook snapshot.
    const { deleted, webhookStatus } = await withNotificationsHeld(ctx.deps.pool, 'webhook-strategies', async () => {
      const deleted = await ctx.api('DELETE', '/api/strategy/SOL-A', { token: admin });
      const webhookStatus = (await ctx.api('POST', `/api/webhook/${webhookToken}`, { payload: 'open', headers: { 'content-type': 'text/plain' } })).status;
      return { deleted, webhookStatus };
    });
    expect(deleted.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect(webhookStatus).toBe(404);
    expect((await ctx.api('GET', '/api/strategy/SOL-A', { token: admin })).status).toBe(404);
    const after = (await ctx.deps.db.select().from(strategies).where(eq(strategies.id, 'SOL-A')))[0]!;
    expect([after.webhookTokenHash, after.webhookTokenSealed, after.legacyWebhookToken]).toEqual([null, null, null]);
    const search = await ctx.api('POST', '/api/strategy/search', { token: admin, body: { filter: [{ name: 'id', value: 'SOL-A' }] } });
    expect(search.body.data.paging.totalCount).toBe(0);
    const reuse = await create(validBody('SOL-A'));
    expect(reuse.status).toBe(409);
    expect(reuse.body.error?.message).toBe('Strategy ID SOL-A belonged to a deleted strategy and cannot be used again; choose another Strategy ID');
    expect((await ctx.api('DELETE', '/api/strategy/SOL-A', { token: admin })).status).toBe(404);
  });

  it('rotates the webhook token (admins only): the new URL replaces the old one, at once', async () => {
    const before = (await ctx.api('GET', '/api/strategy/XRP-A', { token: admin })).body.data.webhookUrl;
    expect((await ctx.api('POST', '/api/strategy/XRP-A/webhook/rotate', { token: employee })).status).toBe(403);
    // The token -> strategy snapshot is known to hold XRP-A (its webhook answered from memory).
    const oldToken = (before as string).split('/').at(-1) as string;
    await waitForSnapshotOf(oldToken);
    // The rotation's notification still on its way to the listener: the old URL is refused all the same.
    const { rotated, oldUrlStatus } = await withNotificationsHeld(ctx.deps.pool, 'webhook-strategies', async () => {
      const rotated = await ctx.api('POST', '/api/strategy/XRP-A/webhook/rotate', { token: admin });
      const oldUrlStatus = (await ctx.api('POST', `/api/webhook/${oldToken}`, { payload: 'open', headers: { 'content-type': 'text/plain' } })).status;
      return { rotated, oldUrlStatus };
    });
    expect(oldUrlStatus).toBe(404);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.id).toBe('XRP-A');
    expect(rotated.body.data.webhookUrl).not.toBe(before);
    const after = (await ctx.api('GET', '/api/strategy/XRP-A', { token: admin })).body.data.webhookUrl;
    expect(after).toBe(rotated.body.data.webhookUrl);
    const [row] = await ctx.deps.db.select().from(strategies).where(eq(strategies.id, 'XRP-A'));
    const token = rotated.body.data.webhookUrl.split('/').at(-1) as string;
    expect(rotated.body.data.webhookUrl).toBe(`${ctx.config.publicUrl}/api/webhook/${token}`);
    expect(row!.webhookTokenHash).toBe(sha256(token));
    expect((await ctx.api('POST', `/api/webhook/${oldToken}`, { payload: 'open', headers: { 'content-type': 'text/plain' } })).status).toBe(404);
  });
});

describe('symbol check when no exchange answers', () => {
  it('answers 503 with a clear message instead of accepting an unverified symbol', async () => {
    const offline = await createTestContext({ database: ctx.database });
    try {
      useExchangeAccess(offline.deps, { sandboxUrl: 'http://127.0.0.1:9', fetchImplementation: guardedFetch });
      const answer = await offline.api('POST', '/api/strategy', { token: admin, body: validBody('OFFLINE1') });
      expect(answer.status).toBe(503);
      expect(answer.body.error?.message).toBe('The exchanges cannot be reached to check the symbol. Please try again in a minute.');
    } finally {
      await offline.close();
    }
  });
});
