import { sql, type SQL } from 'drizzle-orm';
import { REPORT_YEARS } from '../../../contract/constants';
import type { DbOrTx } from '../../db/client';
import { customers, executions, orders } from '../../db/schema/index';
import { readEarningsSettings } from './settings';

/**
 * The platform's profit-share fees (rules in contract/api/earnings.ts): per customer and UTC month
 * of the position's close, percentage x max(0, realized PnL - threshold), rounded to cents.
 */
export interface EarningsFilter {
  /** Only customers of this agent (agents.id). */
  agentId?: number;
  /** Positions closed at or after this instant. */
  from?: Date;
  /** Positions closed before this instant. */
  to?: Date;
}

/** One row per customer and month: the fee the platform earned. */
async function customerMonthFees(db: DbOrTx, filter: EarningsFilter): Promise<SQL> {
  const { defaultProfitSharePct, monthlyThresholdUsdt } = await readEarningsSettings(db);
  const closedAt = sql`coalesce(${executions.closedAt}, ${orders.closedAt})`;
  const conditions: SQL[] = [sql`${closedAt} is not null`];
  if (filter.from) conditions.push(sql`${closedAt} >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`${closedAt} < ${filter.to.toISOString()}::timestamptz`);
  if (filter.agentId !== undefined) conditions.push(sql`${customers.agentId} = ${filter.agentId}`);
  return sql`
    select m.month, round(coalesce(m.pct, ${defaultProfitSharePct}::numeric) / 100
                 * greatest(0, m.pnl - ${monthlyThresholdUsdt}::numeric), 2) as fee
    from (
      select ${executions.customerId} as customer_id,
             date_trunc('month', ${closedAt} at time zone 'UTC') as month,
             max(${customers.profitSharePct}) as pct,
             sum(${executions.realizedPnl}) as pnl
      from ${executions}
      join ${orders} on ${orders.id} = ${executions.orderId}
      join ${customers} on ${customers.id} = ${executions.customerId}
      where ${sql.join(conditions, sql` and `)}
      group by 1, 2
    ) m`;
}

/** Fees earned over a period (all time without bounds), optionally for one agent's customers. */
export async function amountEarned(db: DbOrTx, filter: EarningsFilter = {}): Promise<number> {
  const fees = await customerMonthFees(db, filter);
  const result = await db.execute<{ total: string | null }>(sql`select coalesce(sum(f.fee), 0) as total from (${fees}) f`);
  return Number(result.rows[0]?.total ?? 0);
}

/** Fees per UTC month (1-12) of one year, every month present. */
export async function monthlyIncome(db: DbOrTx, year: number): Promise<Array<{ month: number; income: number }>> {
  const from = new Date(Date.UTC(year, 0, 1));
  const to = new Date(Date.UTC(year + 1, 0, 1));
  const fees = await customerMonthFees(db, { from, to });
  const result = await db.execute<{ month: number; income: string }>(
    sql`select extract(month from f.month)::int as month, sum(f.fee) as income from (${fees}) f group by 1`,
  );
  const byMonth = new Map(result.rows.map((row) => [Number(row.month), Number(row.income)]));
  return Array.from({ length: 12 }, (_, i) => ({ month: i + 1, income: byMonth.get(i + 1) ?? 0 }));
}

/** Years of the Monthly Income Report: the spec's 2024-2026, widened to the first order's year and to the current one. */
export async function reportYears(db: DbOrTx, now: Date): Promise<number[]> {
  const result = await db.execute<{ first: number | null }>(
    sql`select extract(year from min(${orders.datetimeInserted}) at time zone 'UTC')::int as first from ${orders}`,
  );
  const current = now.getUTCFullYear();
  const first = Math.min(result.rows[0]?.first ?? REPORT_YEARS[0], REPORT_YEARS[0]);
  const last = Math.max(current, REPORT_YEARS[2]);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
