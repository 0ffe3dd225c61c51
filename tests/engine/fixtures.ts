import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { AccountStatus, AccountType, AmountType, CustomerGroup, EntryDirection, Exchange, OrderEntryType, PositionMode, TakeProfitMode } from '../../contract/enums';
import { customers, exchangeAccountSettings, strategies, strategyGroups } from '../../server/db/schema/index';
import { encryptCredentials } from '../../server/lib/credentials';
import { webhookTokenColumns } from '../../server/modules/strategies/webhook-token';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { AccountState, Credentials as SandboxCredentials } from '../../server/sandbox/control';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { enqueueOrder } from '../../server/trading/enqueue';
import { startDispatcher } from '../../server/trading/start';
import { createExchangeAdapters } from '../../server/trading/exchanges/index';
import { DEFAULT_CEILINGS, ExchangeRateLimiter } from '../../server/trading/exchanges/rate-limiter';
import { useExchangeAccess, type ExchangeAccessOptions } from '../../server/trading/exchanges/for-deps';
import type { TradingConfig } from '../../server/trading/config';
import { guardedFetch } from '../helpers/fetch-guard';
import { createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

export interface StrategyInput {
  id?: string;
  symbol?: string;
  entryDirection?: EntryDirection;
  leverage?: number;
  positionMode?: PositionMode;
  takeProfitType?: AmountType;
  takeProfitMode?: TakeProfitMode;
  tp: Array<{ target: number; volume: number }>;
  stopLoss?: { type: AmountType; amount: number };
  advanceStopLoss?: boolean;
  trailing?: { activationType: AmountType; activation: number; closeType: AmountType; close: number };
  groups: Array<{ group: number; investType: AmountType; amount: number }>;
  exclusiveCustomerId?: number;
  status?: number;
}

let strategyCounter = 0;

export async function insertStrategy(ctx: TestContext, input: StrategyInput): Promise<{ id: string; token: string; url: string }> {
  strategyCounter += 1;
  const id = input.id ?? `S${strategyCounter}${randomBytes(2).toString('hex')}`;
  const token = randomBytes(24).toString('base64url');
  const [tp1, tp2, tp3] = input.tp;
  await ctx.deps.db.insert(strategies).values({
    id,
    symbol: input.symbol ?? 'BTCUSDT',
    entryDirection: input.entryDirection ?? EntryDirection.Long,
    leverage: input.leverage ?? 10,
    positionMode: input.positionMode ?? PositionMode.OneWay,
    takeProfitType: input.takeProfitType ?? AmountType.Percent,
    takeProfitMode: input.takeProfitMode ?? (input.tp.length > 1 ? TakeProfitMode.Partial : TakeProfitMode.Full),
    tp1TargetLevel: String(tp1!.target),
    tp1CloseVolume: String(tp1!.volume),
    tp2TargetLevel: tp2 ? String(tp2.target) : null,
    tp2CloseVolume: tp2 ? String(tp2.volume) : null,
    tp3TargetLevel: tp3 ? String(tp3.target) : null,
    tp3CloseVolume: tp3 ? String(tp3.volume) : null,
    stopLossType: input.stopLoss?.type ?? AmountType.Percent,
    stopLossAmount: String(input.stopLoss?.amount ?? 2),
    advanceStopLoss: input.advanceStopLoss ?? false,
    trailingStop: input.trailing !== undefined,
    activationType: input.trailing?.activationType ?? null,
    activationAmount: input.trailing ? String(input.trailing.activation) : null,
    closeType: input.trailing?.closeType ?? null,
    closeAmount: input.trailing ? String(input.trailing.close) : null,
    status: input.status ?? 1,
    exclusiveCustomerId: input.exclusiveCustomerId ?? null,
    ...webhookTokenColumns(ctx.deps.secrets, id, token),
  });
  await ctx.deps.db.insert(strategyGroups).values(input.groups.map((g) => ({ strategyId: id, group: g.group, investType: g.investType, investAmount: String(g.amount) })));
  return { id, token, url: `/api/webhook/${token}` };
}

export interface TradingCustomer {
  customerId: number;
  accountId: number;
  exchange: 'bybit' | 'bitget';
  sandbox: SandboxCredentials | null;
}

/** A customer with an account on the sandbox (funded) and its encrypted key stored, unless `connected` is false. */
export async function tradingCustomer(
  ctx: TestContext,
  sandbox: RunningSandbox | null,
  options: { exchange: 'bybit' | 'bitget'; group: number; status?: AccountStatus; connected?: boolean; balance?: number; badKey?: boolean },
): Promise<TradingCustomer> {
  const person = await createPerson(ctx, AccountType.Customer, { status: options.status ?? AccountStatus.Active, group: options.group });
  if (options.connected === false) return { customerId: person.roleId, accountId: person.accountId, exchange: options.exchange, sandbox: null };
  const creds = sandbox
    ? sandbox.control.createAccount({ exchange: options.exchange, balance: options.balance ?? 100_000 })
    : { exchange: options.exchange, uid: `u${person.roleId}`, apiKey: `key${person.roleId}`, secret: `secret${person.roleId}`, passphrase: options.exchange === 'bitget' ? 'pass' : '' };
  const stored = options.badKey ? { apiKey: `${creds.apiKey}x`, apiSecret: creds.secret, passphrase: creds.passphrase || null } : { apiKey: creds.apiKey, apiSecret: creds.secret, passphrase: creds.passphrase || null };
  await ctx.deps.db
    .update(customers)
    .set({ platformType: options.exchange === 'bybit' ? Exchange.Bybit : Exchange.Bitget, ...encryptCredentials(ctx.deps.secrets, person.accountId, stored) })
    .where(sql`${customers.id} = ${person.roleId}`);
  return { customerId: person.roleId, accountId: person.accountId, exchange: options.exchange, sandbox: creds };
}

export interface EngineSuite {
  readonly ctx: TestContext;
  readonly sandbox: RunningSandbox;
  readonly dispatcher: Dispatcher;
}

/**
 * A fresh Gold customer on each exchange: the Gold customers made before move to Occasion, so only these
 * two hold a Gold strategy made next.
 */
export async function goldPair(ctx: TestContext, sandbox: RunningSandbox): Promise<TradingCustomer[]> {
  await ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
  return [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
}

/** The customer's orders on the exchange, as the sandbox holds them. */
export const exchangeOrdersOf = (sandbox: RunningSandbox, customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).orders;

/** The customer's open position on the symbol on the exchange, if any. */
export const exchangePositionOf = (sandbox: RunningSandbox, customer: TradingCustomer, symbol = 'BTCUSDT') =>
  sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.symbol === symbol && p.size > 0);

/**
 * The engine of a describe block: a test database, an exact sandbox with BTCUSDT at 60,000 and the
 * dispatcher `start` gives, set up before its tests and stopped after them.
 */
export function engineSuite(start: (ctx: TestContext, sandbox: RunningSandbox) => Promise<Dispatcher>): EngineSuite {
  const suite = {} as { ctx: TestContext; sandbox: RunningSandbox; dispatcher: Dispatcher };
  beforeAll(async () => {
    suite.ctx = await createTestContext();
    suite.sandbox = await startExactSandbox({ randomWalk: false });
    suite.sandbox.control.setPrice('BTCUSDT', 60000);
    suite.dispatcher = await start(suite.ctx, suite.sandbox);
  });
  afterAll(async () => {
    await suite.dispatcher.stop();
    await Promise.race([suite.sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await suite.ctx.close();
  });
  return suite;
}

/** `access`: more of the exchange access (e.g. a `fetchImplementation` from `fetchGate`). */
export async function startEngine(
  ctx: TestContext,
  sandbox: RunningSandbox,
  config: Partial<TradingConfig> = {},
  exchangeTimeoutMs?: number,
  access: Omit<ExchangeAccessOptions, 'sandboxUrl' | 'timeoutMs'> = {},
): Promise<Dispatcher> {
  useExchangeAccess(ctx.deps, { ...access, sandboxUrl: sandbox.url, timeoutMs: exchangeTimeoutMs });
  return startDispatcher(ctx.deps, ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000, ...config } });
}

/** A limiter letting one Bybit request be in flight at a time (`startEngineWithQueuedBybit`). */
export function queuedBybitLimiter(): ExchangeRateLimiter {
  return new ExchangeRateLimiter({ ...DEFAULT_CEILINGS, bybit: { ...DEFAULT_CEILINGS.bybit, maxInFlight: 1 } });
}

/**
 * The engine over REST with one Bybit request in flight at a time: entries queue at the limiter the way
 * thousands do under the per-IP ceiling. REST only: warm accounts would otherwise open Bybit trade
 * sockets, which this limiter does not pace. A test holding that one place itself (`limiter.acquire`
 * on the `default` egress) holds every Bybit request until it gives it back.
 */
export async function startEngineWithQueuedBybit(ctx: TestContext, sandbox: RunningSandbox, config: Partial<TradingConfig> = {}, limiter = queuedBybitLimiter()): Promise<Dispatcher> {
  const adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, limiter, bybitOrderEntry: 'rest', privateStreams: false });
  await Promise.all([adapters.bybit.loadMarkets(), adapters.bitget.loadMarkets()]);
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, adapters });
  return startDispatcher(ctx.deps, ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000, ...config } });
}

export interface FetchGate {
  /** The fetch to give the exchange access: requests `held` matches wait (unsent) until `open()`. */
  fetch: typeof guardedFetch;
  /** Requests held so far. */
  held(): number;
  /** Sends the held requests and lets every later one through. */
  open(): void;
}

/**
 * Holds the exchange requests `held` picks (by URL, or body) until the test opens the gate: a step waits
 * for as long as the test says, not for a latency the machine's speed may outrun. A held request
 * whose caller gives up (its signal aborts) is never sent.
 */
export function fetchGate(held: (url: string, init?: RequestInit) => boolean): FetchGate {
  let opened = false;
  let count = 0;
  const waiting = new Set<() => void>();
  return {
    fetch(url, init) {
      if (opened || !held(typeof url === 'string' ? url : url instanceof URL ? url.href : url.url, init)) return guardedFetch(url, init);
      count += 1;
      return new Promise<void>((resolve, reject) => {
        const signal = init?.signal;
        const go = () => {
          waiting.delete(go);
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          waiting.delete(go);
          reject(signal!.reason);
        };
        waiting.add(go);
        signal?.addEventListener('abort', abort, { once: true });
      }).then(() => guardedFetch(url, init));
    },
    held: () => count,
    open() {
      opened = true;
      for (const go of [...waiting]) go();
    },
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ExecutionRow extends Record<string, unknown> {
  id: number;
  order_id: number;
  customer_id: number;
  client_order_id: string;
  state: string;
  quantity: string | null;
  entry_price: string | null;
  protected_at: Date | null;
  legs: Array<{ kind: string; clientOrderId: string; quantity: number; price: number; status: string; filledQty: number }>;
  realized_pnl: string;
  last_error: string | null;
  closed_at: Date | null;
  stop_loss_price: string | null;
  stop_moved_to_entry: boolean;
  claimed_by: string | null;
  attempts: number;
}

export async function executionsOf(ctx: TestContext, orderId?: number): Promise<ExecutionRow[]> {
  const result = await ctx.deps.db.execute<ExecutionRow>(
    orderId === undefined ? sql`select * from executions order by id` : sql`select * from executions where order_id = ${orderId} order by customer_id`,
  );
  return result.rows;
}

const openStatuses = ['new', 'untriggered', 'partially_filled'];

/**
 * The open stop-loss orders on a symbol: each execution's own sized stop (Bybit conditional or the
 * entry's Partial stop, Bitget loss_plan) and any whole-position stop (Bybit position TP/SL, Bitget pos_loss).
 */
export function stopsOf(state: AccountState, symbol = 'BTCUSDT'): Array<{ clientOrderId: string; price: number; qty: number }> {
  const position = state.positions.find((p) => p.symbol === symbol && p.size > 0);
  const whole = position && position.stopLoss > 0 ? [{ clientOrderId: '', price: position.stopLoss, qty: 0 }] : [];
  const orders = state.orders
    .filter((o) => o.symbol === symbol && o.kind !== 'trailing' && openStatuses.includes(o.status) && (o.labels.tpsl === 'sl' || /-sl(r\d+)?$/.test(o.clientOrderId)))
    .map((o) => ({ clientOrderId: o.clientOrderId, price: o.triggerPrice, qty: o.qty }));
  return [...whole, ...orders];
}

/**
 * The size of the stop an execution alone on its position keeps from its entry: Bybit sizes the entry's
 * stop to the fill (tpslMode Partial); Bitget's entry preset covers the whole position (0), which is
 * this execution's own until another one joins the position.
 */
export const entryStopQty = (exchange: 'bybit' | 'bitget', qty: number) => (exchange === 'bybit' ? qty : 0);

/**
 * Where a long's stop lands when it is moved to the entry price: there on Bybit; on Bitget, whose error
 * list refuses a long's stop at its average open price (40833, the sandbox's stricter reading), one tick below.
 */
export const stopAtEntry = (exchange: 'bybit' | 'bitget', entry: number, tick: number) => (exchange === 'bybit' ? entry : Number((entry - tick).toFixed(8)));

/** The trigger of the one stop protecting the symbol's position (undefined when there is none, or several at different levels). */
export function stopLossOf(state: AccountState, symbol = 'BTCUSDT'): number | undefined {
  const prices = new Set(stopsOf(state, symbol).map((stop) => stop.price));
  return prices.size === 1 ? [...prices][0] : undefined;
}

/** Makes every open position due for a position sync now, and wakes the dispatcher. */
/**
 * Every open execution checked again from now on. A check already running ends by setting its next one a
 * sync interval away, which would undo "now" (and it may have read the exchange before what the test just
 * did there): as the engine does with news of a running execution (wakeExecutions), such executions are
 * made due once their run has ended.
 */
export async function syncNow(ctx: TestContext, dispatcher: Dispatcher): Promise<void> {
  await waitFor(
    'the checks already running to end',
    async () => {
      const { rows } = await ctx.deps.db.execute<{ running: number }>(sql`
        with due as (update executions set next_attempt_at = now() where state = 'open' and (claim_expires_at is null or claim_expires_at < now()) returning id)
        select count(*)::int as running from executions where state = 'open' and claim_expires_at >= now()`);
      dispatcher.wake();
      return rows[0]!.running === 0;
    },
    60_000,
  );
}

/** Sends one alert and waits until every queued execution has its position protected (or ended). */
export async function openPositions(ctx: TestContext, url: string, body = '{"action":"open"}', timeoutMs = 20_000): Promise<{ orderId: number; rows: ExecutionRow[] }> {
  const answer = await ctx.api('POST', url, { payload: body, headers: { 'content-type': 'application/json' } });
  if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}: ${answer.body.error?.message}`);
  const orderId = answer.body.data.orderId as number;
  const rows = await waitFor(
    'positions protected',
    async () => {
      const list = await executionsOf(ctx, orderId);
      return list.every((row) => (row.protected_at !== null && row.claimed_by === null) || ['failed', 'skipped', 'closed'].includes(row.state)) ? list : undefined;
    },
    timeoutMs,
  );
  return { orderId, rows };
}

export async function auditsOf(ctx: TestContext, table: 'entry_audits' | 'exit_audits', orderId: number): Promise<Array<{ customer_id: number; message: string; exit_type?: number | null }>> {
  const result = await ctx.deps.db.execute<{ customer_id: number; message: string; exit_type?: number | null }>(
    table === 'exit_audits'
      ? sql`select customer_id, message, exit_type from exit_audits where order_id = ${orderId} order by id`
      : sql`select customer_id, message from entry_audits where order_id = ${orderId} order by id`,
  );
  return result.rows;
}

/** The engine tests' plain strategy: one take-profit at 5% for the whole position, a 1% stop, Gold invests 0.01 BTC. */
export function goldStrategy(ctx: TestContext): Promise<{ id: string; token: string; url: string }> {
  return insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
}

/** `count` Gold customers on `exchange`, their BTCUSDT leverage and one-way mode set ahead (the hot path is the entry alone). */
export async function preparedGoldCustomers(ctx: TestContext, sandbox: RunningSandbox, exchange: 'bybit' | 'bitget', count: number): Promise<TradingCustomer[]> {
  const made: TradingCustomer[] = [];
  for (let i = 0; i < count; i += 1) made.push(await tradingCustomer(ctx, sandbox, { exchange, group: CustomerGroup.Gold }));
  const platformType = exchange === 'bybit' ? Exchange.Bybit : Exchange.Bitget;
  await ctx.deps.db.insert(exchangeAccountSettings).values(made.map((c) => ({ customerId: c.customerId, platformType, symbol: 'BTCUSDT', leverage: 10, positionMode: PositionMode.OneWay })));
  return made;
}

/** A manual long of the strategy for every eligible customer, queued (not handed to any process). */
export function queueManualLong(ctx: TestContext, strategyId: string, deadlineMs: number): Promise<{ orderId: number }> {
  return ctx.deps.db.transaction((tx) =>
    enqueueOrder(tx, { strategyId, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs, referencePrice: null }),
  );
}

/** What the account's orders on `symbol` paid in fees, from the sandbox's own books. */
export function feesPaid(sandbox: RunningSandbox, customer: TradingCustomer, symbol: string): number {
  return sandbox.control.account(customer.sandbox!.uid).orders.filter((order) => order.symbol === symbol).reduce((sum, order) => sum + order.fee, 0);
}

/** How a closed position's last exit audit ends (LIVE-FIDELITY D12): its gross PnL less the fees paid, no funding settled. */
export const netPnlText = (gross: number, fees: number) => `realized PnL ${(gross - fees).toFixed(2)} USDT after fees ${fees.toFixed(2)} and funding 0.00 USDT`;

/** An admin and an employee with sessions on the suite's server, made once before its tests. */
export function staffOf(suite: EngineSuite): { readonly admin: Person & { token: string }; readonly employee: Person & { token: string } } {
  const staff = {} as { admin: Person & { token: string }; employee: Person & { token: string } };
  beforeAll(async () => {
    staff.admin = await personWithToken(suite.ctx, AccountType.Admin);
    staff.employee = await personWithToken(suite.ctx, AccountType.Employee);
  });
  return staff;
}
