import { sql, type SQL } from 'drizzle-orm';
import type { ExecutionQuality, StrategyQuality } from '../../../contract/api/quality';
import { QUALITY_EXPORT_MAX } from '../../../contract/api/quality';
import type { DbOrTx } from '../../db/client';
import { countByReason, SKIP_MESSAGES_READ } from '../../metrics/skip-reasons';

/**
 * Execution quality (issue 29), computed when read from what the engine records of each entry: the Order's
 * creation (the alert's arrival), executions.entry_sent_at / entry_acked_at / entry_filled_at and the fill
 * price. Slippage is signed for the customer: a long that paid more, or a short that received less, is positive.
 */
const qualityRows = (where: SQL, limit: number) => sql`
  with chosen as (
    select e.id, e.order_id, e.customer_id, e.state, e.entry_price, e.entry_sent_at, e.entry_acked_at, e.entry_filled_at,
      o.datetime_inserted alert_at, o.reference_price, o.side,
      first_value(e.entry_price) over (partition by e.order_id order by e.entry_filled_at nulls last, e.id) first_fill
    from executions e join orders o on o.id = e.order_id
    where ${where})
  select c.id, c.order_id, c.customer_id, c.state, c.entry_price, c.alert_at,
    trim(a.first_name || ' ' || a.last_name) customer_name, cu.platform_type,
    extract(epoch from c.entry_sent_at - c.alert_at) * 1000 sent_ms,
    extract(epoch from c.entry_acked_at - c.alert_at) * 1000 ack_ms,
    extract(epoch from c.entry_filled_at - c.alert_at) * 1000 fill_ms,
    case when c.side = 1 then 1 else -1 end * (c.entry_price - c.reference_price) / nullif(c.reference_price, 0) * 10000 vs_alert_bps,
    case when c.side = 1 then 1 else -1 end * (c.entry_price - c.first_fill) / nullif(c.first_fill, 0) * 10000 vs_first_bps
  from chosen c join customers cu on cu.id = c.customer_id join accounts a on a.id = cu.account_id
  order by c.alert_at desc, c.id
  limit ${limit}`;

type QualityRow = {
  id: number;
  order_id: number;
  customer_id: number;
  state: string;
  entry_price: string | null;
  alert_at: Date | string;
  customer_name: string;
  platform_type: number;
  sent_ms: string | null;
  ack_ms: string | null;
  fill_ms: string | null;
  vs_alert_bps: string | null;
  vs_first_bps: string | null;
};

const numberOr = (value: string | number | null, digits = 2) => (value === null ? null : Number(Number(value).toFixed(digits)));

function toQuality(row: QualityRow): ExecutionQuality {
  return {
    executionId: Number(row.id),
    orderId: Number(row.order_id),
    customerId: Number(row.customer_id),
    customerName: row.customer_name,
    platformType: Number(row.platform_type),
    state: row.state,
    alertAt: new Date(row.alert_at).toISOString(),
    sentMs: numberOr(row.sent_ms, 0),
    ackMs: numberOr(row.ack_ms, 0),
    fillMs: numberOr(row.fill_ms, 0),
    entryPrice: numberOr(row.entry_price, 8),
    slippageVsAlertBps: numberOr(row.vs_alert_bps),
    slippageVsFirstFillBps: numberOr(row.vs_first_bps),
  };
}

export async function orderQuality(db: DbOrTx, orderId: number): Promise<ExecutionQuality[]> {
  const result = await db.execute<QualityRow>(qualityRows(sql`e.order_id = ${orderId}`, QUALITY_EXPORT_MAX));
  return result.rows.map(toQuality);
}

const ofStrategy = (strategyId: string, days: number) => sql`o.strategy_id = ${strategyId} and o.datetime_inserted >= now() - make_interval(days => ${days})`;

export async function strategyExecutionsQuality(db: DbOrTx, strategyId: string, days: number): Promise<ExecutionQuality[]> {
  const result = await db.execute<QualityRow>(qualityRows(ofStrategy(strategyId, days), QUALITY_EXPORT_MAX));
  return result.rows.map(toQuality);
}

const percentiles = sql`
  count(*)::int executions, count(entry_filled_at)::int filled,
  percentile_cont(0.5) within group (order by ack_ms) p50_ack, percentile_cont(0.95) within group (order by ack_ms) p95_ack,
  percentile_cont(0.5) within group (order by fill_ms) p50_fill, percentile_cont(0.95) within group (order by fill_ms) p95_fill,
  avg(vs_alert_bps) mean_slip, percentile_cont(0.95) within group (order by vs_alert_bps) p95_slip`;

type SummaryRow = {
  executions: number;
  filled: number;
  p50_ack: number | null;
  p95_ack: number | null;
  p50_fill: number | null;
  p95_fill: number | null;
  mean_slip: string | null;
  p95_slip: number | null;
};

/** The strategy's copies of the last `days`: percentiles over all of them, and per UTC day. */
export async function strategyQuality(db: DbOrTx, strategyId: string, days: number): Promise<StrategyQuality> {
  const copies = sql`
    with copies as (
      select e.entry_filled_at, date_trunc('day', o.datetime_inserted at time zone 'UTC') as day,
        extract(epoch from e.entry_acked_at - o.datetime_inserted) * 1000 ack_ms,
        extract(epoch from e.entry_filled_at - o.datetime_inserted) * 1000 fill_ms,
        case when o.side = 1 then 1 else -1 end * (e.entry_price - o.reference_price) / nullif(o.reference_price, 0) * 10000 vs_alert_bps
      from executions e join orders o on o.id = e.order_id
      where ${ofStrategy(strategyId, days)})`;
  const [summary, daily, skips] = await Promise.all([
    db.execute<SummaryRow>(sql`${copies} select ${percentiles} from copies`),
    db.execute<SummaryRow & { day: Date | string }>(sql`${copies} select day, ${percentiles} from copies group by day order by day`),
    db.execute<{ by_message: Record<string, number> | null; total: number }>(sql`
      with recent as (select message from entry_audits where strategy_id = ${strategyId} and datetime_inserted >= now() - make_interval(days => ${days})),
        grouped as (select message, count(*) n from recent group by message order by n desc limit ${SKIP_MESSAGES_READ})
      select (select json_object_agg(message, n) from grouped) by_message, (select count(*)::int from recent) total`),
  ]);
  const all = summary.rows[0]!;
  const skipped = Object.entries(countByReason(skips.rows[0]?.by_message ?? null, skips.rows[0]?.total ?? 0)).map(([reason, count]) => ({ reason, count }));
  return {
    days,
    executions: all.executions,
    filled: all.filled,
    fillRate: all.executions > 0 ? numberOr(all.filled / all.executions, 4) : null,
    p50AckMs: numberOr(all.p50_ack, 0),
    p95AckMs: numberOr(all.p95_ack, 0),
    p50FillMs: numberOr(all.p50_fill, 0),
    p95FillMs: numberOr(all.p95_fill, 0),
    meanSlippageBps: numberOr(all.mean_slip),
    p95SlippageBps: numberOr(all.p95_slip),
    skipped: skipped.sort((a, b) => b.count - a.count),
    daily: daily.rows.map((row) => ({
      day: new Date(row.day).toISOString().slice(0, 10),
      executions: row.executions,
      p50AckMs: numberOr(row.p50_ack, 0),
      p95AckMs: numberOr(row.p95_ack, 0),
      meanSlippageBps: numberOr(row.mean_slip),
    })),
  };
}
