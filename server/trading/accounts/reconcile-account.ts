import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recordExitAudit } from '../../lib/audits';
import { parseClientOrderId } from '../exchanges/client-order-id';
import { exchangeNames } from '../exchanges/errors';
import type { Credentials, ExchangeAdapter, LiveOrder, Position } from '../exchanges/types';
import type { ExecutionLeg } from '../legs';
import { EntryDirection } from '../../../contract/enums';

/** Orders and executions changed this recently are left alone: a leg may be placed and not recorded yet (tests pass 0). */
const SETTLING_MS = 30_000;

/** An execution of the account that holds (or is entering) a position. */
interface Holding {
  orderId: number;
  symbol: string;
  side: 'long' | 'short';
  state: 'pending' | 'open';
  remaining: number;
  legs: ExecutionLeg[];
  busy: boolean;
}

export interface ReconciledAccount {
  customerId: number;
  platformType: number;
  credentials: Credentials;
}

async function holdingsOf(db: DbOrTx, customerId: number, settlingMs: number): Promise<Holding[]> {
  const result = await db.execute<{ order_id: number; symbol: string; side: number; state: 'pending' | 'open'; remaining: string; legs: ExecutionLeg[] | null; busy: boolean }>(sql`
    select e.order_id, s.symbol, o.side, e.state, coalesce(e.quantity, 0) - e.closed_qty as remaining, e.legs,
           (e.claimed_by is not null or e.updated_at > now() - make_interval(secs => ${settlingMs / 1000})) as busy
    from executions e join orders o on o.id = e.order_id join strategies s on s.id = o.strategy_id
    where e.customer_id = ${customerId} and e.state in ('pending', 'open')`);
  return result.rows.map((row) => ({ orderId: Number(row.order_id), symbol: row.symbol, side: Number(row.side) === EntryDirection.Long ? 'long' : 'short', state: row.state, remaining: Number(row.remaining), legs: row.legs ?? [], busy: Boolean(row.busy) }));
}

/** Ours, of this customer, and owned by no open execution that records it as a live leg. */
function isOrphan(order: LiveOrder, customerId: number, holdings: Holding[], settledBefore: number): boolean {
  const ours = parseClientOrderId(order.clientOrderId);
  if (!ours || Number(ours.customerId) !== customerId || order.createdAt > settledBefore) return false;
  const owner = holdings.find((h) => h.orderId === Number(ours.orderId));
  if (!owner) return true;
  return !owner.busy && !owner.legs.some((leg) => leg.clientOrderId === order.clientOrderId && leg.status === 'open');
}

/** Cancels the legs nobody owns (a crash between a close and its cancels, a leg the exchange let survive its position), each audited. */
async function cancelOrphans(db: DbOrTx, adapter: ExchangeAdapter, account: ReconciledAccount, live: LiveOrder[], holdings: Holding[], settlingMs: number): Promise<number> {
  const orphans = live.filter((order) => isOrphan(order, account.customerId, holdings, Date.now() - settlingMs));
  for (const order of orphans) {
    await adapter.cancelOrder(account.credentials, order.symbol, order.clientOrderId);
    const orderId = Number(parseClientOrderId(order.clientOrderId)!.orderId);
    const strategy = await db.execute<{ strategy_id: string }>(sql`select strategy_id from orders where id = ${orderId}`);
    await recordExitAudit(db, {
      orderId: strategy.rows[0] ? orderId : null,
      customerId: account.customerId,
      strategyId: strategy.rows[0]?.strategy_id ?? null,
      exitType: null,
      message: `Reconciler: order ${order.clientOrderId} on ${order.symbol} belongs to no open position of the platform but was still live on the exchange: cancelled`,
      isError: true,
    });
  }
  return orphans.length;
}

type FindingKind = 'untracked' | 'oversized';

/** What the exchange holds that the platform's executions do not account for (never touched, told to staff). */
interface Finding {
  position: Position;
  kind: FindingKind;
  ours: number;
}

function findingsOf(positions: Position[], holdings: Holding[], traded: ReadonlySet<string>): Finding[] {
  return positions.flatMap((position): Finding[] => {
    if (!traded.has(position.symbol)) return [];
    const holders = holdings.filter((h) => h.symbol === position.symbol && h.side === position.side);
    if (holders.length === 0) return [{ position, kind: 'untracked', ours: 0 }];
    const ours = Number(holders.reduce((sum, h) => sum + (h.state === 'open' ? h.remaining : 0), 0).toFixed(8));
    const entering = holders.some((h) => h.state === 'pending' || h.busy);
    return !entering && position.size > ours * 1.000001 + 1e-9 ? [{ position, kind: 'oversized', ours }] : [];
  });
}

const findingMessage = (exchange: string, finding: Finding) => {
  const { position, kind, ours } = finding;
  const held = `${exchange} shows a ${position.side} position of ${position.size} ${position.symbol}`;
  return kind === 'untracked'
    ? `Reconciler: ${held} that the platform did not open: it is left untouched`
    : `Reconciler: ${held}, more than the platform's open executions hold (${ours}): the difference is left untouched`;
};

/** Tells staff each finding once (again when its size changes), and forgets those resolved. */
async function reportFindings(db: DbOrTx, account: ReconciledAccount, exchange: string, findings: Finding[]): Promise<number> {
  let told = 0;
  for (const finding of findings) {
    const { position, kind } = finding;
    const changed = await db.execute(sql`
      insert into reconciler_findings (customer_id, symbol, side, kind, size) values (${account.customerId}, ${position.symbol}, ${position.side}, ${kind}, ${position.size})
      on conflict (customer_id, symbol, side, kind) do update set size = excluded.size, reported_at = now()
      where reconciler_findings.size <> excluded.size`);
    if ((changed.rowCount ?? 0) === 0) continue;
    told += 1;
    await recordExitAudit(db, { orderId: null, customerId: account.customerId, strategyId: null, exitType: null, message: findingMessage(exchange, finding), isError: true });
  }
  const kept = JSON.stringify(findings.map((f) => ({ symbol: f.position.symbol, side: f.position.side, kind: f.kind })));
  await db.execute(sql`
    delete from reconciler_findings r where r.customer_id = ${account.customerId}
      and (r.symbol, r.side, r.kind) not in (select k.symbol, k.side, k.kind from jsonb_to_recordset(${kept}::jsonb) as k(symbol text, side text, kind text))`);
  return told;
}

/**
 * The reconciler's check of one account as a whole (after its stream came back, and on a slow timer):
 * legs live on the exchange that no open execution owns are cancelled; a position on a traded symbol the
 * platform did not open, or larger than its executions hold, is reported to staff and never touched.
 * Reads go out as background requests (they never take trading's share of the address's budget).
 */
export async function reconcileAccount(db: DbOrTx, adapter: ExchangeAdapter, account: ReconciledAccount, settlingMs = SETTLING_MS): Promise<{ orphans: number; findings: number }> {
  const credentials: Credentials = { ...account.credentials, background: true };
  const [positions, live, holdings, traded] = await Promise.all([
    adapter.fetchPositions(credentials),
    adapter.fetchLiveOrders(credentials),
    holdingsOf(db, account.customerId, settlingMs),
    db.execute<{ symbol: string }>(sql`select distinct symbol from strategies`),
  ]);
  const orphans = await cancelOrphans(db, adapter, { ...account, credentials }, live, holdings, settlingMs);
  const findings = findingsOf(positions, holdings, new Set(traded.rows.map((row) => row.symbol)));
  return { orphans, findings: await reportFindings(db, account, exchangeNames[adapter.exchange], findings) };
}
