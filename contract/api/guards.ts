import { z } from 'zod';
import { idParams } from '../common';
import { defineRoute, ErrorStatus } from '../route';
import { strategyIdParams } from './strategy';

/** The longest maximum alert age a strategy may set: one day. */
export const MAX_ALERT_AGE_LIMIT_S = 86_400;
/** The widest slippage limit a strategy may set: 10,000 bp (100 %). */
export const MAX_SLIPPAGE_LIMIT_BPS = 10_000;

/**
 * Guards of a strategy (issue 29).
 * - Maximum alert age: an entry alert stamped (`timestamp`, TradingView's {{timenow}}) longer ago is
 *   answered 200, audited as arriving late and opens no Order. Unset, the process's MAX_ALERT_AGE_MS.
 * - Maximum slippage: when the alert carries its `price` ({{close}}), an entry whose expected fill at
 *   sending (ask for a long, bid for a short) is further from it than this many basis points is skipped
 *   for that customer, with the reason in the entry audit. Unset, no limit.
 */
export const strategyGuards = z.object({
  /** Seconds; null: the default below applies. */
  maxAlertAgeS: z.number().int().nullable(),
  /** Basis points (1 bp = 0.01 %); null: no limit. */
  maxSlippageBps: z.number().int().nullable(),
  /** The process's default (MAX_ALERT_AGE_MS), in whole seconds. */
  defaultMaxAlertAgeS: z.number().int(),
});
export type StrategyGuards = z.infer<typeof strategyGuards>;

export const strategyGuardsMessages = {
  maxAlertAge: `Maximum alert age must be a whole number of seconds from 1 to ${MAX_ALERT_AGE_LIMIT_S}, or empty for the default`,
  maxSlippage: `Maximum slippage must be a whole number of basis points from 1 to ${MAX_SLIPPAGE_LIMIT_BPS}, or empty for no limit`,
};

/** A whole number from 1 to `max`, or null; every failure says `message`. */
const wholeUpTo = (max: number, message: string) => z.number({ error: message }).int(message).min(1, message).max(max, message).nullable();

/** Every guard of the strategy, each null for its default: the PUT replaces them all. */
export const strategyGuardsBody = z.object({
  maxAlertAgeS: wholeUpTo(MAX_ALERT_AGE_LIMIT_S, strategyGuardsMessages.maxAlertAge),
  maxSlippageBps: wholeUpTo(MAX_SLIPPAGE_LIMIT_BPS, strategyGuardsMessages.maxSlippage),
});
export type StrategyGuardsBody = z.infer<typeof strategyGuardsBody>;

/** The upper bounds of a customer's guards (the database checks the same). */
export const CUSTOMER_GUARD_LIMITS = {
  maxNotionalUsdt: 100_000_000,
  maxLeverage: 125,
  maxOpenPositions: 1_000,
  minFreeBalanceUsdt: 100_000_000,
  dailyLossLimitUsdt: 100_000_000,
  maxDrawdownPct: 99,
} as const;

/** After a loss guard paused a customer's copying: until an admin resumes it, or at the next 00:00 UTC. */
export const LOSS_GUARD_RESUMES = ['staff', 'next_day'] as const;
export type LossGuardResume = (typeof LOSS_GUARD_RESUMES)[number];

export const customerGuardsMessages = {
  maxNotionalUsdt: `Maximum notional must be a whole number of USDT from 1 to ${CUSTOMER_GUARD_LIMITS.maxNotionalUsdt}, or empty for no limit`,
  maxLeverage: `Maximum leverage must be a whole number from 1 to ${CUSTOMER_GUARD_LIMITS.maxLeverage}, or empty for no limit`,
  maxOpenPositions: `Maximum open positions must be a whole number from 1 to ${CUSTOMER_GUARD_LIMITS.maxOpenPositions}, or empty for no limit`,
  minFreeBalanceUsdt: `Minimum free balance must be a whole number of USDT from 1 to ${CUSTOMER_GUARD_LIMITS.minFreeBalanceUsdt}, or empty for none`,
  dailyLossLimitUsdt: `Daily loss limit must be a whole number of USDT from 1 to ${CUSTOMER_GUARD_LIMITS.dailyLossLimitUsdt}, or empty for no limit`,
  maxDrawdownPct: `Maximum drawdown must be a whole number of percent from 1 to ${CUSTOMER_GUARD_LIMITS.maxDrawdownPct}, or empty for no limit`,
  lossGuardResume: "Resume after a loss guard must be 'staff' or 'next_day'",
};

/**
 * Guards of one customer (issue 29), each checked on every entry for them before it is sent; an entry
 * that would break one is skipped for that customer with the reason in its entry audit. Null: no limit.
 * - maxNotionalUsdt: the most one entry may be worth (quantity x price);
 * - maxLeverage: the highest leverage a strategy may trade the account at;
 * - maxOpenPositions: the most positions (symbol and side) the platform holds open on the account;
 * - minFreeBalanceUsdt: the free USDT the account keeps (read from the exchange at entry).
 * Loss guards pause the customer's copying when hit (open positions keep their protection; staff are
 * notified; the customer's dashboard says why), until `lossGuardResume`: an admin resumes it, or the next day:
 * - dailyLossLimitUsdt: realized losses since 00:00 UTC, net of fees and funding, reaching it (checked at every close);
 * - maxDrawdownPct: the account's equity this far below its high-water mark (checked at every wallet sync).
 */
export const customerGuardsBody = z.object({
  maxNotionalUsdt: wholeUpTo(CUSTOMER_GUARD_LIMITS.maxNotionalUsdt, customerGuardsMessages.maxNotionalUsdt),
  maxLeverage: wholeUpTo(CUSTOMER_GUARD_LIMITS.maxLeverage, customerGuardsMessages.maxLeverage),
  maxOpenPositions: wholeUpTo(CUSTOMER_GUARD_LIMITS.maxOpenPositions, customerGuardsMessages.maxOpenPositions),
  minFreeBalanceUsdt: wholeUpTo(CUSTOMER_GUARD_LIMITS.minFreeBalanceUsdt, customerGuardsMessages.minFreeBalanceUsdt),
  dailyLossLimitUsdt: wholeUpTo(CUSTOMER_GUARD_LIMITS.dailyLossLimitUsdt, customerGuardsMessages.dailyLossLimitUsdt),
  maxDrawdownPct: wholeUpTo(CUSTOMER_GUARD_LIMITS.maxDrawdownPct, customerGuardsMessages.maxDrawdownPct),
  lossGuardResume: z.enum(LOSS_GUARD_RESUMES, { error: customerGuardsMessages.lossGuardResume }).default('staff'),
});
export type CustomerGuards = z.infer<typeof customerGuardsBody>;
/** The guards as answered: every field, `lossGuardResume` always given. */
export const customerGuards = customerGuardsBody.extend({ lossGuardResume: z.enum(LOSS_GUARD_RESUMES) });

export const guardRoutes = {
  strategyGuards: defineRoute({
    method: 'GET', path: '/api/strategy/:id/guards', access: 'staffRead', tag: 'guards',
    summary: "The strategy's guards: the maximum age of its entry alerts and the maximum slippage from an alert's price", params: strategyIdParams, data: strategyGuards, errors: [ErrorStatus.NotFound],
  }),
  setStrategyGuards: defineRoute({
    method: 'PUT', path: '/api/strategy/:id/guards', access: 'adminTrading', tag: 'guards',
    summary: "Set the strategy's guards (an alert older than its maximum age, or an entry that slipped further than its maximum, is skipped and audited)",
    params: strategyIdParams, body: strategyGuardsBody, data: strategyGuards, errors: [ErrorStatus.NotFound],
  }),
  customerGuards: defineRoute({
    method: 'GET', path: '/api/customer/:id/guards', access: 'staffRead', tag: 'guards',
    summary: "The customer's guards: maximum notional, leverage and open positions, minimum free balance, daily loss limit and maximum drawdown", params: idParams, data: customerGuards, errors: [ErrorStatus.NotFound],
  }),
  setCustomerGuards: defineRoute({
    method: 'PUT', path: '/api/customer/:id/guards', access: 'adminTrading', tag: 'guards',
    summary: "Set the customer's guards (an entry for them that would break one is skipped and audited with the reason)",
    params: idParams, body: customerGuardsBody, data: customerGuards, errors: [ErrorStatus.NotFound],
  }),
};
