import { defaultBook, type BookConfig, type FaultRule, type StreamFaultRule } from '../../server/sandbox/index';
import { closeOrder } from '../../server/trading/intake';
import { executionsOf, type ExecutionRow } from '../engine/fixtures';
import type { Scope } from './delivery';
import { cancelByHand, closeByHand } from './exchange-hand';
import { isLive } from './observe';
import type { BookShape, PlannedFault, PlannedStreamFault, Step } from './plan';
import { eligibleFor, ENGINE_SETTINGS, workerBeatSince, type ChaosWorld } from './world';

/** How long the engine may need per round trip beyond the latency the harness adds (three round trips: read, place, confirm). */
const ROUND_TRIPS = 3;
/** A private socket whose pings go unanswered is cut after at most two ping periods (Bitget's 25 s is the longer). */
const STALL_DETECTION_MS = 50_000;
/** A request refused by a fault rule is retried with backoff: what each refusal may add before the engine gets through. */
const REFUSAL_ALLOWANCE_MS = 2_500;
/** A request refused for its timestamp is retried once the engine has read the exchange's time again. */
const CLOCK_ALLOWANCE_MS = 5_000;
/** A liquidated customer's wallet is drained to this share of the position's value (its liquidation price that far away). */
const LIQUIDATION_DISTANCE = 0.03;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a wait that was not reached saw of one execution: enough to tell a stuck step from a slow one. */
function describeExecution(row: ExecutionRow): string {
  const customer = `customer ${row.customer_id} ${row.state}`;
  const fill = row.entry_price === null ? 'no fill' : `filled ${row.quantity ?? '?'} at ${row.entry_price}`;
  const flags = [row.protected_at === null ? 'unprotected' : 'protected', row.claimed_by === null ? 'unclaimed' : `claimed by ${row.claimed_by}`, `attempts ${row.attempts}`];
  return `${customer}, ${fill}, ${flags.join(', ')}${row.last_error ? `, last error: ${row.last_error.slice(0, 120)}` : ''}`;
}

/** Open windows of the delivery clock that a later step ends (latency back to 0, stream faults cleared...). */
interface OpenWindows {
  latency?: ReturnType<ChaosWorld['delivery']['allowance']>;
  streamDelay: Array<ReturnType<ChaosWorld['delivery']['allowance']>>;
  stalls: Array<{ outage: ReturnType<ChaosWorld['delivery']['outage']>; customer: number | undefined; exchange: string | undefined }>;
  refusals: Array<ReturnType<ChaosWorld['delivery']['allowance']>>;
  clock?: ReturnType<ChaosWorld['delivery']['allowance']>;
  kill?: ReturnType<ChaosWorld['delivery']['outage']>;
}

export class ActionRunner {
  private readonly windows: OpenWindows = { streamDelay: [], stalls: [], refusals: [] };
  private alertCount = 0;

  constructor(private readonly world: ChaosWorld) {}

  async run(step: Step): Promise<void> {
    const w = this.world;
    switch (step.do) {
      case 'alert':
        return this.alert(step.strategy, step.action);
      case 'staff-close':
        return this.staffClose(step.strategy);
      case 'book':
        return this.book(step.shape, step.thinShare ?? 0.5);
      case 'faults':
        return this.faults(step.rules);
      case 'stream-faults':
        return this.streamFaults(step.rules);
      case 'drop-streams':
        return this.dropStreams(step);
      case 'latency':
        return this.latency(step.ms);
      case 'clock':
        return this.clock(step.offsetMs);
      case 'margin-short':
        w.sandbox.control.updateAccount(w.customers[step.customer]!.uid, { marginShort: step.short });
        return w.note(`margin short #${step.customer}: ${step.short}`);
      case 'price':
        return this.price(step.move);
      case 'manual-close':
        return this.manualClose(step.customer, step.share);
      case 'cancel-stop':
        return this.cancelStop(step.customer);
      case 'liquidate':
        return this.liquidate(step.customer);
      case 'drop-trade-sockets':
        w.note(`trade sockets dropped: ${w.sandbox.control.dropTradeSockets()}`);
        return;
      case 'kill-worker':
        return this.kill();
      case 'restart-worker':
        return this.restart();
      case 'wait':
        await sleep(step.ms);
        return;
      case 'wait-until':
        return this.waitUntil(step);
    }
  }

  private lastOrderOf(strategy: number): number | undefined {
    return this.world.alerts.filter((a) => a.strategy === strategy).at(-1)?.orderId;
  }

  private async alert(strategy: number, action: 'open' | 'close'): Promise<void> {
    const w = this.world;
    this.alertCount += 1;
    const body = JSON.stringify({ action, alert_id: `chaos-${w.plan.seed}-${this.alertCount}` });
    const answer = await w.ctx.api('POST', w.strategies[strategy]!.url, { payload: body, headers: { 'content-type': 'application/json' } });
    if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}: ${answer.body.error?.message}`);
    const data = answer.body.data as { orderId: number | null; executions: number; skipped: number; closing: number };
    if (action === 'open' && data.orderId !== null) w.alerts.push({ strategy, orderId: data.orderId, at: Date.now(), eligible: eligibleFor(w, strategy) });
    w.note(`alert ${action} ${w.strategies[strategy]!.plan.name}: order ${data.orderId ?? '-'}, executions ${data.executions}, skipped ${data.skipped}, closing ${data.closing}`);
  }

  private async staffClose(strategy: number): Promise<void> {
    const w = this.world;
    const orderId = this.lastOrderOf(strategy);
    if (orderId === undefined) return w.note('staff close: no order yet');
    try {
      const result = await closeOrder(w.ctx.deps, { orderId, actorAccountId: w.adminAccountId });
      w.note(`staff close of order ${orderId}: ${result.closing} closing`);
    } catch (error) {
      w.note(`staff close of order ${orderId} refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private book(shape: BookShape, thinShare: number): void {
    const w = this.world;
    const smallest = Math.min(...w.plan.strategies.map((s) => s.quantity));
    const thin: BookConfig = { levels: 1, levelNotional: 1, levelSize: Math.max(0.001, Math.floor(smallest * thinShare * 1000) / 1000), spread: 0.0002, step: 0.0002, refillMs: 1e9 };
    const config: BookConfig = shape === 'normal' ? { ...defaultBook } : shape === 'thin' ? thin : { ...thin, levelSize: 0.0001 };
    w.sandbox.control.setBook(config, w.plan.symbol);
    w.note(`book ${shape}${shape === 'thin' ? ` (${config.levelSize} a side, no refill)` : ''}`);
  }

  private scopeOf(customer: number | undefined, exchange: string | undefined): Scope {
    if (customer !== undefined) return new Set([customer]);
    if (exchange !== undefined) return new Set(this.world.customers.flatMap((c, i) => (c.exchange === exchange ? [i] : [])));
    return undefined;
  }

  private faults(rules: PlannedFault[]): void {
    const w = this.world;
    const resolved: FaultRule[] = rules.map(({ customer, ...rule }) => ({ ...rule, ...(customer !== undefined ? { account: w.customers[customer]!.uid } : {}) }));
    w.sandbox.control.setFaults(resolved);
    for (const allowance of this.windows.refusals.splice(0)) w.delivery.endAllowance(allowance, Date.now());
    for (const rule of rules) {
      const each = REFUSAL_ALLOWANCE_MS + (rule.hideOrderMs ?? 0) + (rule.timeoutMs ?? 0);
      this.windows.refusals.push(w.delivery.allowance(this.scopeOf(rule.customer, rule.exchange), Date.now(), each * (rule.remaining ?? 3)));
    }
    w.note(`faults ${JSON.stringify(resolved)}`);
  }

  private streamFaults(rules: PlannedStreamFault[]): void {
    const w = this.world;
    const now = Date.now();
    const resolved: StreamFaultRule[] = rules.map(({ customer, ...rule }) => ({ ...rule, ...(customer !== undefined ? { account: w.customers[customer]!.uid } : {}) }));
    w.sandbox.control.setStreamFaults(resolved);
    for (const allowance of this.windows.streamDelay.splice(0)) w.delivery.endAllowance(allowance, now);
    // A stall's lost events are known once the engine has noticed the dead socket and caught up after reconnecting.
    for (const stall of this.windows.stalls.splice(0)) w.delivery.endOutage(stall.outage, now + STALL_DETECTION_MS);
    for (const rule of rules) {
      const scope = this.scopeOf(rule.customer, rule.exchange);
      if (rule.delayMs) this.windows.streamDelay.push(w.delivery.allowance(scope, now, rule.delayMs.max));
      if (rule.stall) this.windows.stalls.push({ outage: w.delivery.outage(scope, now), customer: rule.customer, exchange: rule.exchange });
    }
    w.note(`stream faults ${JSON.stringify(resolved)}`);
  }

  private dropStreams(step: Extract<Step, { do: 'drop-streams' }>): void {
    const w = this.world;
    const now = Date.now();
    const account = step.customer !== undefined ? w.customers[step.customer]!.uid : undefined;
    const dropped = w.sandbox.control.dropStreams({ ...(account ? { account } : {}), ...(step.exchange ? { exchange: step.exchange } : {}), refuseMs: step.refuseMs });
    w.delivery.outage(this.scopeOf(step.customer, step.exchange), now, now + step.refuseMs);
    w.note(`private streams dropped: ${dropped} (${account ?? step.exchange ?? 'all'}), reconnects refused ${step.refuseMs} ms`);
  }

  private latency(ms: number): void {
    const w = this.world;
    w.sandbox.control.setLatency(ms);
    if (this.windows.latency) w.delivery.endAllowance(this.windows.latency, Date.now());
    this.windows.latency = ms > 0 ? w.delivery.allowance(undefined, Date.now(), ROUND_TRIPS * 2 * ms) : undefined;
    w.note(`latency ${ms} ms`);
  }

  /** The exchanges' clock ahead of (or behind) the engine's: requests refused for their timestamp until the engine measures the offset. */
  private clock(offsetMs: number): void {
    const w = this.world;
    w.sandbox.control.setClockOffset(offsetMs);
    if (this.windows.clock) w.delivery.endAllowance(this.windows.clock, Date.now());
    this.windows.clock = offsetMs !== 0 ? w.delivery.allowance(undefined, Date.now(), CLOCK_ALLOWANCE_MS) : undefined;
    w.note(`exchange clock ${offsetMs > 0 ? '+' : ''}${offsetMs} ms`);
  }

  private price(move: number): void {
    const w = this.world;
    const price = Math.round(w.plan.startPrice * (1 + move) * 10) / 10;
    w.sandbox.control.setPrice(w.plan.symbol, price);
    w.note(`price ${price}`);
  }

  private positionsOf(customer: number) {
    const c = this.world.customers[customer]!;
    return this.world.sandbox.control.account(c.uid).positions.filter((p) => p.symbol === this.world.plan.symbol && p.size > 0);
  }

  private async manualClose(customer: number, share: number): Promise<void> {
    const w = this.world;
    const position = this.positionsOf(customer)[0];
    if (!position) return w.note(`close by hand #${customer}: no position`);
    const qty = share >= 1 ? position.size : Math.floor(position.size * share * 1000) / 1000;
    if (qty < 0.001) return w.note(`close by hand #${customer}: ${position.size} too small to split`);
    const answer = await closeByHand(w.sandbox, w.customers[customer]!, position, qty);
    w.note(`close by hand #${customer} ${position.side} ${qty} of ${position.size}: HTTP ${answer.status} ${answer.body.slice(0, 160)}`);
  }

  private async cancelStop(customer: number): Promise<void> {
    const w = this.world;
    const c = w.customers[customer]!;
    const stop = w.sandbox.control
      .account(c.uid)
      .orders.find((o) => isLive(o) && o.symbol === w.plan.symbol && o.kind !== 'trailing' && (o.labels.tpsl === 'sl' || /-sl(r\d+)?$/.test(o.clientOrderId)));
    if (!stop) return w.note(`cancel stop by hand #${customer}: no stop order`);
    const answer = await cancelByHand(w.sandbox, c, stop);
    w.note(`cancel stop by hand #${customer} ${stop.clientOrderId || stop.labels.planType || stop.id}: HTTP ${answer.status} ${answer.body.slice(0, 160)}`);
  }

  /**
   * A real liquidation (D7): the wallet drained so the cross position's liquidation price sits a few percent
   * away, the mark price (not the last price: the stops do not trigger) moved past it, the wallet given back
   * once the sandbox has taken the position over.
   */
  private async liquidate(customer: number): Promise<void> {
    const w = this.world;
    const c = w.customers[customer]!;
    const position = this.positionsOf(customer)[0];
    if (!position) return w.note(`liquidation #${customer}: no position`);
    const wallet = w.sandbox.control.account(c.uid).balances.USDT ?? 0;
    const keep = position.size * position.entryPrice * LIQUIDATION_DISTANCE;
    w.sandbox.control.fund(c.uid, keep - wallet);
    const liquidationPrice = this.positionsOf(customer)[0]?.liquidationPrice ?? 0;
    if (liquidationPrice <= 0) {
      w.sandbox.control.fund(c.uid, wallet - keep);
      return w.note(`liquidation #${customer}: no liquidation price with ${keep.toFixed(2)} USDT left`);
    }
    const mark = Math.round(liquidationPrice * (position.side === 'long' ? 0.995 : 1.005) * 10) / 10;
    w.sandbox.control.setQuote(w.plan.symbol, { mark, index: mark });
    const gone = !this.positionsOf(customer).some((p) => p.side === position.side);
    w.sandbox.control.fund(c.uid, wallet - keep);
    w.note(`liquidation #${customer}: ${position.side} ${position.size}, wallet ${keep.toFixed(2)} USDT, mark ${mark} past ${liquidationPrice}: ${gone ? 'taken over' : 'still open'}`);
  }

  private async kill(): Promise<void> {
    const w = this.world;
    this.windows.kill = w.delivery.outage(undefined, Date.now());
    await w.engine.kill();
    w.note('worker killed (SIGKILL)');
  }

  /** Starts the worker again; the outage ends once it beats and the dead worker's claims have expired. */
  private async restart(): Promise<void> {
    const w = this.world;
    const at = Date.now();
    await w.engine.restart();
    w.note('worker restarted');
    const outage = this.windows.kill;
    if (!outage) return;
    void (async () => {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline && !(await workerBeatSince(w, at).catch(() => false))) await sleep(200);
      w.delivery.endOutage(outage, Date.now() + ENGINE_SETTINGS.leaseMs);
      w.note('restarted worker beats');
    })();
  }

  private async waitUntil(step: Extract<Step, { do: 'wait-until' }>): Promise<void> {
    const w = this.world;
    const orderId = this.lastOrderOf(step.strategy);
    if (orderId === undefined) return;
    const done = (rows: ExecutionRow[]) => {
      if (step.until === 'closing') return rows.some((r) => r.close_requested_at !== null);
      if (step.until === 'entries-done') return rows.every((r) => r.state !== 'pending' && (r.state !== 'open' || r.entry_price !== null));
      return rows.every((r) => ['failed', 'skipped', 'closed'].includes(r.state) || (r.state === 'open' && r.protected_at !== null && r.claimed_by === null));
    };
    const deadline = Date.now() + step.timeoutMs;
    let rows: ExecutionRow[] = [];
    while (Date.now() < deadline) {
      rows = await executionsOf(w.ctx, orderId);
      if (done(rows)) return;
      await sleep(100);
    }
    w.note(`waited ${step.timeoutMs} ms for ${step.until} of order ${orderId}: not reached, going on (${rows.map(describeExecution).join('; ')})`);
  }
}
