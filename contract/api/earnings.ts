import { z } from 'zod';
import { numberFromText } from '../common';
import { defineRoute } from '../route';

/**
 * Earnings: the platform's profit-share fee.
 *
 * - Each customer has a profit-share percentage (`customers.profit_share_pct`, agreed at setup);
 *   a customer without one uses `defaultProfitSharePct` of the earnings settings.
 * - Realized PnL counts in the UTC calendar month in which the customer's position closed
 *   (`executions.closed_at`, or the Order's `closed_at` when the execution has none): the sum of
 *   the customer's `executions.realized_pnl` over positions closed that month. Open positions earn
 *   nothing yet.
 * - The monthly return threshold is a flat USDT amount per customer and month
 *   (`monthlyThresholdUsdt`, default 0). A percentage of the wallet at month start was considered
 *   and rejected: the platform keeps no history of wallet balances (the exchange balance moves with
 *   deposits and withdrawals the platform never sees), so such a fee could not be recomputed the
 *   same way twice.
 * - Fee of one customer for one month = percentage / 100 x max(0, realized PnL of the month -
 *   threshold), rounded to cents. A losing month earns 0; losses are not carried forward.
 * - "Amount earned" over a period is the sum of those fees over the customer-months in the period;
 *   "Income" of a month in the Monthly Income Report is the same sum for that month.
 */
export const DEFAULT_PROFIT_SHARE_PCT = 20;
export const DEFAULT_MONTHLY_THRESHOLD_USDT = 0;
/** Far above any monthly profit; keeps the setting inside what the stored decimal can hold. */
export const MAX_MONTHLY_THRESHOLD_USDT = 1_000_000_000;

export const earningsSettings = z.object({
  defaultProfitSharePct: z
    .number({ error: 'defaultProfitSharePct must be a number' })
    .min(0, 'defaultProfitSharePct must be between 0 and 100')
    .max(100, 'defaultProfitSharePct must be between 0 and 100'),
  monthlyThresholdUsdt: z
    .number({ error: 'monthlyThresholdUsdt must be a number' })
    .min(0, 'monthlyThresholdUsdt cannot be negative')
    .max(MAX_MONTHLY_THRESHOLD_USDT, `monthlyThresholdUsdt must be at most ${MAX_MONTHLY_THRESHOLD_USDT}`),
});
export type EarningsSettings = z.infer<typeof earningsSettings>;

export const incomeQuery = z.object({
  year: numberFromText(
    z.number({ error: 'year must be a number' }).int('year must be a whole number').min(2000, 'year must be 2000 or later').max(2100, 'year must be 2100 or earlier'),
    'year must be a number',
  ),
});

export const monthlyIncome = z.object({
  /** 1-12. */
  month: z.number().int(),
  income: z.number(),
});

export const incomeReport = z.object({
  year: z.number().int(),
  months: z.array(monthlyIncome),
  /** 2024, 2025 and 2026 (spec 9), widened to the first order's year and to the current year. */
  years: z.array(z.number().int()),
});
export type IncomeReport = z.infer<typeof incomeReport>;

export const earningsRoutes = {
  getSettings: defineRoute({
    method: 'GET', path: '/api/settings/earnings', access: 'staffRead', tag: 'earnings',
    summary: 'Default profit-share percentage and monthly return threshold', data: earningsSettings,
  }),
  putSettings: defineRoute({
    method: 'PUT', path: '/api/settings/earnings', access: 'adminManage', tag: 'earnings',
    summary: 'Change the default profit-share percentage and the monthly return threshold (USDT)',
    body: earningsSettings, data: earningsSettings,
  }),
  income: defineRoute({
    method: 'GET', path: '/api/report/income', access: 'staffRead', tag: 'earnings',
    summary: 'Monthly Income Report: platform fees per month of a year, and the years with data',
    query: incomeQuery, data: incomeReport,
  }),
};
