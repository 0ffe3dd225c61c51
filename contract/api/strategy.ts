import { z } from 'zod';
import { filterItem, MAX_ID, pageRequest, text } from '../common';
import { POSITION_CLOSE_MAX, POSITION_CLOSE_MIN } from '../constants';
import {
  AmountType,
  CustomerGroup,
  EntryDirection,
  PositionMode,
  TakeProfitMode,
} from '../enums';
import { pagedOf } from '../envelope';
import { validation } from '../messages';
import { defineRoute, ErrorStatus } from '../route';

/**
 * The strategy form's rules (spec 5 "Strategy save"), in one schema used by the server and the web
 * form alike. Inputs are lenient (numbers may arrive as strings, empty inputs as '' or null) so each
 * missing field gets the spec's own message; the output is the normalised strategy.
 */

export const MAX_LEVERAGE = 200;
/** Largest amount, level or volume a strategy may hold (the database keeps 16 digits before the point). */
export const MAX_STRATEGY_NUMBER = 1_000_000_000_000;
export const STRATEGY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** TradingView marks perpetuals with `.P` (BTCUSDT.P); the exchanges call it BTCUSDT. */
export function normaliseSymbol(symbol: string): string {
  return symbol.trim().toUpperCase().replace(/\.P$/, '');
}

const loose = z.union([z.number(), text().max(64, 'must be a number of at most 64 characters'), z.null()]).optional();
const looseBool = z.union([z.boolean(), z.null()]).optional();
const amountInput = z.object({ type: loose, amount: loose }).nullish();
const tpInput = z.object({ targetLevel: loose, closeVolume: loose }).nullish();
const groupInput = z.object({ group: loose, investAmount: amountInput });

export const strategyGroupsInput = z.array(groupInput, { error: 'groups must be a list of { group, investAmount }' });

type Loose = z.infer<typeof loose>;

/** undefined when the input is empty, NaN when it is not a number (or one too large to store). */
function num(value: Loose): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= MAX_STRATEGY_NUMBER ? n : NaN;
}

type Issue = { message: string; path: (string | number)[] };

export interface StrategyAmount {
  type: AmountType;
  amount: number;
}
export interface StrategyGroupSetting {
  group: CustomerGroup;
  investAmount: StrategyAmount;
}

const groupValues = new Set<number>(Object.values(CustomerGroup));

/** Groups: each chosen once, with an invest amount in $ or quantity; Exclusive only with Internal. */
function checkGroups(groups: z.infer<typeof strategyGroupsInput>, issues: Issue[]): StrategyGroupSetting[] {
  const out: StrategyGroupSetting[] = [];
  if (groups.length === 0) issues.push({ message: 'Choose at least one customer group', path: ['groups'] });
  groups.forEach((entry, i) => {
    const group = num(entry.group);
    if (group === undefined || !groupValues.has(group)) {
      issues.push({ message: 'group must be 1 (Gold), 2 (Internal), 3 (Vip), 4 (Occasion) or 5 (Exclusive)', path: ['groups', i, 'group'] });
      return;
    }
    if (out.some((g) => g.group === group)) {
      issues.push({ message: 'Each group can be chosen only once', path: ['groups', i, 'group'] });
      return;
    }
    const type = num(entry.investAmount?.type);
    const amount = num(entry.investAmount?.amount);
    if (type !== AmountType.Dollar && type !== AmountType.Quantity) {
      issues.push({ message: validation.investRequired, path: ['groups', i, 'investAmount', 'type'] });
      return;
    }
    if (amount === undefined || Number.isNaN(amount) || amount <= 0) {
      issues.push({ message: validation.investRequired, path: ['groups', i, 'investAmount', 'amount'] });
      return;
    }
    out.push({ group: group as CustomerGroup, investAmount: { type, amount } });
  });
  const chosen = new Set(out.map((g) => g.group));
  if (chosen.has(CustomerGroup.Exclusive) && !chosen.has(CustomerGroup.Internal)) {
    issues.push({ message: 'Exclusive can be chosen only together with Internal', path: ['groups'] });
  }
  return out;
}

function checkExclusiveCustomer(groups: StrategyGroupSetting[], value: Loose, issues: Issue[]): number | null {
  const exclusive = groups.some((g) => g.group === CustomerGroup.Exclusive);
  const customerId = num(value);
  if (!exclusive) {
    if (customerId !== undefined) issues.push({ message: 'An exclusive customer can be set only when the Exclusive group is chosen', path: ['exclusiveCustomerId'] });
    return null;
  }
  if (customerId === undefined || !Number.isInteger(customerId) || customerId <= 0 || customerId > MAX_ID) {
    issues.push({ message: validation.selectOption, path: ['exclusiveCustomerId'] });
    return null;
  }
  return customerId;
}

const stopLossTypes = new Set<number>([AmountType.Dollar, AmountType.Percent]);

function checkStopLoss(input: z.infer<typeof amountInput>, issues: Issue[]): StrategyAmount | undefined {
  const type = num(input?.type);
  const amount = num(input?.amount);
  if (amount === undefined || amount === 0) {
    issues.push({ message: validation.stopLossRequired, path: ['stopLoss', 'amount'] });
    return undefined;
  }
  if (Number.isNaN(amount) || amount < 0) {
    issues.push({ message: 'Stop loss must be a positive number', path: ['stopLoss', 'amount'] });
    return undefined;
  }
  if (type === undefined || !stopLossTypes.has(type)) {
    issues.push({ message: validation.selectOption, path: ['stopLoss', 'type'] });
    return undefined;
  }
  return { type: type as AmountType, amount };
}

/**
 * PATCH body once a strategy is saved: only groups, stop loss and the exclusive customer change.
 * Without `exclusiveCustomerId` a strategy that keeps Exclusive keeps its exclusive customer
 * (`undefined` in the output); dropping Exclusive clears it.
 */
export const strategyUpdateBody = z
  .object({ groups: strategyGroupsInput, stopLoss: amountInput, exclusiveCustomerId: loose })
  .transform((input, ctx) => {
    const issues: Issue[] = [];
    const groups = checkGroups(input.groups, issues);
    const stopLoss = checkStopLoss(input.stopLoss, issues);
    const keepExclusive = input.exclusiveCustomerId === undefined && groups.some((g) => g.group === CustomerGroup.Exclusive);
    const exclusiveCustomerId = keepExclusive ? undefined : checkExclusiveCustomer(groups, input.exclusiveCustomerId, issues);
    for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return issues.length > 0 || !stopLoss ? z.NEVER : { groups, stopLoss, exclusiveCustomerId };
  });
export type StrategyUpdate = z.infer<typeof strategyUpdateBody>;

export const strategyInput = z.object({
  id: z.union([text().max(200, 'Strategy ID may use letters, digits, - and _ (at most 64)'), z.null()]).optional(),
  symbol: z.union([text().max(200, 'Symbol/Token must be an exchange symbol such as BTCUSDT'), z.null()]).optional(),
  groups: strategyGroupsInput.optional(),
  entryDirection: loose,
  leverage: loose,
  positionMode: loose,
  takeProfitType: loose,
  takeProfitMode: loose,
  tp1: tpInput,
  tp2: tpInput,
  tp3: tpInput,
  stopLoss: amountInput,
  advanceStopLoss: looseBool,
  trailingStop: looseBool,
  positionActivation: amountInput,
  positionClose: amountInput,
  exclusiveCustomerId: loose,
});

export interface TakeProfitLevel {
  targetLevel: number | null;
  closeVolume: number;
}
export interface TrailingAmount {
  type: AmountType | null;
  amount: number | null;
}

export interface StrategySettings {
  id: string;
  symbol: string;
  groups: StrategyGroupSetting[];
  entryDirection: EntryDirection;
  leverage: number;
  positionMode: PositionMode;
  takeProfitType: AmountType;
  takeProfitMode: TakeProfitMode;
  tp1: TakeProfitLevel;
  tp2: TakeProfitLevel;
  tp3: TakeProfitLevel;
  stopLoss: StrategyAmount;
  advanceStopLoss: boolean;
  trailingStop: boolean;
  positionActivation: TrailingAmount;
  positionClose: TrailingAmount;
  exclusiveCustomerId: number | null;
}

function choice<T extends number>(value: Loose, allowed: readonly T[], path: string, issues: Issue[]): T | undefined {
  const n = num(value);
  if (n === undefined || !allowed.includes(n as T)) {
    issues.push({ message: validation.selectOption, path: [path] });
    return undefined;
  }
  return n as T;
}

function positive(value: Loose): number | undefined {
  const n = num(value);
  return n === undefined || Number.isNaN(n) || n <= 0 ? undefined : n;
}

function inTrailingRange(amount: number): boolean {
  return amount >= POSITION_CLOSE_MIN && amount <= POSITION_CLOSE_MAX;
}

/** Take-profit levels: Full closes 100% at TP1; Partial needs every level and TP1 + TP2 <= 100. */
function checkTakeProfit(input: z.infer<typeof strategyInput>, mode: TakeProfitMode | undefined, issues: Issue[]) {
  const tp1Target = positive(input.tp1?.targetLevel);
  if (tp1Target === undefined) issues.push({ message: validation.takeProfitRequired, path: ['tp1', 'targetLevel'] });
  if (mode !== TakeProfitMode.Partial) {
    return { tp1: { targetLevel: tp1Target ?? 0, closeVolume: 100 }, tp2: { targetLevel: null, closeVolume: 0 }, tp3: { targetLevel: null, closeVolume: 0 } };
  }
  const tp2Target = positive(input.tp2?.targetLevel);
  const tp3Target = positive(input.tp3?.targetLevel);
  const v1 = num(input.tp1?.closeVolume);
  const v2 = num(input.tp2?.closeVolume);
  const missing = tp2Target === undefined || tp3Target === undefined || v1 === undefined || v2 === undefined || v1 === 0 || v2 === 0;
  if (missing) {
    issues.push({ message: validation.allTpLevelsRequired, path: ['takeProfitMode'] });
  } else if (Number.isNaN(v1) || Number.isNaN(v2) || v1 < 0 || v2 < 0 || v1 + v2 > 100) {
    issues.push({ message: validation.enterCorrectValues, path: ['tp2', 'closeVolume'] });
  }
  const volume1 = v1 ?? 0;
  const volume2 = v2 ?? 0;
  return {
    tp1: { targetLevel: tp1Target ?? 0, closeVolume: volume1 },
    tp2: { targetLevel: tp2Target ?? null, closeVolume: volume2 },
    tp3: { targetLevel: tp3Target ?? null, closeVolume: Math.round((100 - volume1 - volume2) * 1e8) / 1e8 },
  };
}

/** Trailing stop: activation and position close required; `%` values between 0.01 and 10. */
function checkTrailing(input: z.infer<typeof strategyInput>, on: boolean, issues: Issue[]) {
  const off = { positionActivation: { type: null, amount: null }, positionClose: { type: null, amount: null } };
  if (!on) return off;
  const trailingTypes = [AmountType.Dollar, AmountType.Percent] as const;
  const activationType = num(input.positionActivation?.type);
  const activationAmount = positive(input.positionActivation?.amount);
  const closeType = num(input.positionClose?.type);
  const closeAmount = positive(input.positionClose?.amount);
  let valid = true;
  if (activationAmount === undefined || !trailingTypes.includes(activationType as (typeof trailingTypes)[number])) {
    issues.push({ message: validation.activationRequired, path: ['positionActivation'] });
    valid = false;
  } else if (activationType === AmountType.Percent && !inTrailingRange(activationAmount)) {
    issues.push({ message: validation.valueBetween, path: ['positionActivation', 'amount'] });
    valid = false;
  }
  if (closeAmount === undefined || !trailingTypes.includes(closeType as (typeof trailingTypes)[number])) {
    issues.push({ message: validation.positionCloseRequired, path: ['positionClose'] });
    valid = false;
  } else if ((closeType === AmountType.Percent || activationType !== AmountType.Dollar) && !inTrailingRange(closeAmount)) {
    issues.push({ message: validation.valueBetween, path: ['positionClose', 'amount'] });
    valid = false;
  }
  if (!valid) return off;
  return {
    positionActivation: { type: activationType as AmountType, amount: activationAmount! },
    positionClose: { type: closeType as AmountType, amount: closeAmount! },
  };
}

/** POST /api/strategy body: every rule of spec 5 "Strategy save", with the spec's messages. */
export const strategyCreateBody = strategyInput.transform((input, ctx): StrategySettings => {
  const issues: Issue[] = [];
  const id = input.id?.trim() ?? '';
  if (id === '') issues.push({ message: validation.strategyIdRequired, path: ['id'] });
  else if (!STRATEGY_ID_PATTERN.test(id)) issues.push({ message: 'Strategy ID may use letters, digits, - and _ (at most 64)', path: ['id'] });
  const symbol = normaliseSymbol(input.symbol ?? '');
  if (symbol === '') issues.push({ message: validation.symbolRequired, path: ['symbol'] });
  else if (!/^[A-Z0-9]{2,40}$/.test(symbol)) issues.push({ message: 'Symbol/Token must be an exchange symbol such as BTCUSDT', path: ['symbol'] });
  const leverage = num(input.leverage);
  if (leverage === undefined || leverage === 0) issues.push({ message: validation.leverageRequired, path: ['leverage'] });
  else if (!Number.isInteger(leverage) || leverage < 1 || leverage > MAX_LEVERAGE) {
    issues.push({ message: `Leverage must be a whole number from 1 to ${MAX_LEVERAGE}`, path: ['leverage'] });
  }
  const positionMode = choice(input.positionMode, [PositionMode.OneWay, PositionMode.Hedge], 'positionMode', issues);
  const entryDirection = choice(input.entryDirection, [EntryDirection.Long, EntryDirection.Short], 'entryDirection', issues);
  const takeProfitType = choice(input.takeProfitType, [AmountType.Dollar, AmountType.Percent], 'takeProfitType', issues);
  const takeProfitMode = choice(input.takeProfitMode, [TakeProfitMode.Full, TakeProfitMode.Partial], 'takeProfitMode', issues);
  const takeProfit = checkTakeProfit(input, takeProfitMode, issues);
  const stopLoss = checkStopLoss(input.stopLoss, issues);
  const trailingStop = input.trailingStop === true;
  const trailing = checkTrailing(input, trailingStop, issues);
  const groups = checkGroups(input.groups ?? [], issues);
  const exclusiveCustomerId = checkExclusiveCustomer(groups, input.exclusiveCustomerId, issues);
  for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  if (issues.length > 0) return z.NEVER;
  return {
    id,
    symbol,
    groups,
    entryDirection: entryDirection!,
    leverage: leverage!,
    positionMode: positionMode!,
    takeProfitType: takeProfitType!,
    takeProfitMode: takeProfitMode!,
    ...takeProfit,
    stopLoss: stopLoss!,
    advanceStopLoss: input.advanceStopLoss === true,
    trailingStop,
    ...trailing,
    exclusiveCustomerId,
  };
});

const amountOut = z.object({ type: z.number().int(), amount: z.number() });
const trailingOut = z.object({ type: z.number().int().nullable(), amount: z.number().nullable() });
const tpOut = z.object({ targetLevel: z.number().nullable(), closeVolume: z.number() });

export const strategy = z.object({
  id: z.string(),
  symbol: z.string(),
  groups: z.array(z.object({ group: z.number().int(), investAmount: amountOut })),
  entryDirection: z.number().int(),
  leverage: z.number().int(),
  positionMode: z.number().int(),
  takeProfitType: z.number().int(),
  takeProfitMode: z.number().int(),
  tp1: tpOut,
  tp2: tpOut,
  tp3: tpOut,
  stopLoss: amountOut,
  advanceStopLoss: z.boolean(),
  trailingStop: z.boolean(),
  positionActivation: trailingOut,
  positionClose: trailingOut,
  status: z.number().int(),
  exclusiveCustomerId: z.number().int().nullable(),
  exclusiveCustomer: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }).nullable(),
  /** Admins only: the URL that trades (null for everyone else). */
  webhookUrl: z.string().nullable(),
  /** Whether the strategy has a webhook; what everyone but admins sees of it. */
  hasWebhook: z.boolean(),
  win: z.number().int(),
  loss: z.number().int(),
  datetimeInserted: z.string(),
  datetimeUpdated: z.string(),
});
export type Strategy = z.infer<typeof strategy>;

/** What a customer sees of the strategies of their group: no webhook, no other groups' amounts. */
export const customerStrategy = strategy.omit({ webhookUrl: true, hasWebhook: true, groups: true, exclusiveCustomerId: true, exclusiveCustomer: true }).extend({
  investAmount: amountOut,
});
export type CustomerStrategy = z.infer<typeof customerStrategy>;

export const strategyIdParams = z.object({ id: text().trim().min(1, 'Strategy ID is required').max(64, 'Strategy ID has at most 64 characters') });

export const strategySearchBody = pageRequest.extend({ filter: z.array(filterItem).max(20, 'filter may list at most 20 items').default([]) });
export const strategySortBody = pageRequest.extend({
  type: z.literal([1, 2], { error: 'type must be 1 (ascending) or 2 (descending)' }).default(1),
});

/** The manual Order placed: one execution per eligible customer; `skipped` customers are in the entry audit. */
export const manualOrderResult = z.object({
  orderId: z.number().int(),
  strategyId: z.string(),
  side: z.number().int(),
  executions: z.number().int(),
  skipped: z.number().int(),
});

export const strategyRoutes = {
  create: defineRoute({
    method: 'POST', path: '/api/strategy', access: 'adminTrading', tag: 'strategies',
    summary: 'Create a strategy (status Active); answers its id and webhook URL',
    body: strategyCreateBody, data: z.object({ id: z.string(), webhookUrl: z.string() }),
    errors: [ErrorStatus.Conflict, ErrorStatus.Unavailable],
  }),
  get: defineRoute({
    method: 'GET', path: '/api/strategy/:id', access: 'staffRead', tag: 'strategies',
    summary: 'One strategy with its groups and win/loss counts; the webhook URL is shown to admins only (others see hasWebhook)',
    params: strategyIdParams, data: strategy, errors: [ErrorStatus.NotFound],
  }),
  update: defineRoute({
    method: 'PATCH', path: '/api/strategy/:id', access: 'adminTrading', tag: 'strategies',
    summary: 'Change the groups and the stop loss of a saved strategy (other fields are locked and ignored)',
    params: strategyIdParams, body: strategyUpdateBody, data: strategy, errors: [ErrorStatus.NotFound],
  }),
  remove: defineRoute({
    method: 'DELETE', path: '/api/strategy/:id', access: 'adminTrading', tag: 'strategies',
    summary: 'Delete a strategy without open orders; its webhook stops working', params: strategyIdParams,
    data: z.object({ success: z.literal(true) }), errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  search: defineRoute({
    method: 'POST', path: '/api/strategy/search', access: 'staffRead', tag: 'strategies',
    summary: 'Strategies, newest first; filter names "id" and "symbol" (both: contains, any case)',
    body: strategySearchBody, data: pagedOf(strategy),
  }),
  sortBySymbol: defineRoute({
    method: 'POST', path: '/api/strategy/sorting/symbol', access: 'staffRead', tag: 'strategies',
    summary: 'Strategies sorted by symbol: type 1 ascending, 2 descending', body: strategySortBody, data: pagedOf(strategy),
  }),
  openLong: defineRoute({
    method: 'POST', path: '/api/strategy/:id/long', access: 'adminTrading', tag: 'strategies',
    summary: 'Open a long market order for every eligible customer of the strategy', params: strategyIdParams, data: manualOrderResult,
    errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  openShort: defineRoute({
    method: 'POST', path: '/api/strategy/:id/short', access: 'adminTrading', tag: 'strategies',
    summary: 'Open a short market order for every eligible customer of the strategy', params: strategyIdParams, data: manualOrderResult,
    errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  rotateWebhook: defineRoute({
    method: 'POST', path: '/api/strategy/:id/webhook/rotate', access: 'adminTrading', tag: 'strategies',
    summary: 'Replace the webhook token; the old URL stops working at once', params: strategyIdParams,
    data: z.object({ id: z.string(), webhookUrl: z.string() }), errors: [ErrorStatus.NotFound],
  }),
  customerSearch: defineRoute({
    method: 'POST', path: '/api/customer/strategies/search', access: 'customerOwn', tag: 'strategies',
    summary: "The signed-in customer's strategies (those of their group), read-only", body: strategySearchBody,
    data: pagedOf(customerStrategy), ownRecordsOnly: true,
  }),
};
