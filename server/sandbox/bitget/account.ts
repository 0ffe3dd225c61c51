import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import { findMarket, formatNumber as num } from '../markets';
import { leverageAboveTier } from '../risk-tiers';
import type { PositionIdx } from '../types';
import { holdsAnything, marginModeOf } from './checks';
import { paramError } from './errors';
import { accountView } from './format';
import { requireUsdtFutures, symbolOf } from './orders';

/**
 * GET /api/v2/spot/account/info: the key's user id, bound IPs and authorities. It needs spot read permission
 * (a futures-only key is refused with 40014) and allows one call per second per UID (limits.ts).
 */
function keyInfo(ctx: PrivateContext): Record<string, unknown> {
  const { account } = ctx;
  if (!account.permissions.spot) throw new ApiError('40014', 'Incorrect permissions, need spot permissions');
  const authorities = account.permissions.trade ? ['coow', 'cpow', 'stow'] : ['coor', 'cpor', 'stor'];
  if (account.permissions.withdraw) authorities.push('wwow');
  return {
    userId: account.uid,
    inviterId: '',
    ips: account.ips.join(','),
    authorities,
    parentId: Number(account.uid),
    traderType: 'not_trader',
    channelCode: '',
    channel: '',
    regisTime: String(account.createdAt),
  };
}

function leverageParam(value: unknown, max: number): number | undefined {
  const leverage = numberParam(value);
  if (leverage !== undefined && !(leverage >= 1 && leverage <= max)) throw paramError(`leverage must be between 1 and ${max}`);
  return leverage;
}

/**
 * Change-Leverage: `leverage` for cross margin and one-way isolated; isolated hedge mode sets one side, named
 * by `holdSide` (without it: 40808 "... hold side is null", ccxt issue 24700), or both sides with
 * longLeverage/shortLeverage. Nothing changed: 45054 "No change in leverage".
 */
function setLeverage(ctx: PrivateContext): Record<string, unknown> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  const max = findMarket(symbol)?.maxLeverage ?? 1;
  const leverage = leverageParam(body.leverage, max);
  const longLeverage = leverageParam(body.longLeverage, max);
  const shortLeverage = leverageParam(body.shortLeverage, max);
  const holdSide = text(body.holdSide);
  if (holdSide !== undefined && holdSide !== 'long' && holdSide !== 'short') throw paramError('holdSide must be long or short');
  const current = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  const next = { ...current };
  const isolatedHedge = marginModeOf(account, symbol) === 'isolated' && sandbox.engine.positionModeOf(account, symbol) === 'hedge';
  if (isolatedHedge && (longLeverage !== undefined || shortLeverage !== undefined)) {
    next.long = longLeverage ?? next.long;
    next.short = shortLeverage ?? next.short;
  } else if (isolatedHedge) {
    if (!holdSide) throw new ApiError('40808', 'Parameter verification exception double fixed, hold side is null');
    if (leverage === undefined) throw paramError('leverage is required');
    next[holdSide] = leverage;
  } else {
    const both = longLeverage ?? leverage;
    if (both === undefined) throw paramError('leverage is required');
    next.long = both;
    next.short = both;
  }
  if (next.long === current.long && next.short === current.short) throw new ApiError('45054', 'No change in leverage');
  checkLeverageTier(ctx, symbol, next);
  account.leverage.set(symbol, next);
  for (const position of account.positions.values()) if (position.symbol === symbol && position.side) sandbox.engine.positionChanged(account, position);
  const marginMode = marginModeOf(account, symbol) === 'isolated' ? 'isolated' : 'crossed';
  return { symbol, marginCoin: 'USDT', longLeverage: num(next.long), shortLeverage: num(next.short), crossMarginLeverage: num(next.long), marginMode };
}

/**
 * A leverage above what the risk tier of the open position's value allows (query-position-lever) is refused
 * with the error list's 45044 "Leverage is not within the suitable range after adjustment" (the list names no
 * endpoint; set-leverage is where a leverage is adjusted).
 */
function checkLeverageTier(ctx: PrivateContext, symbol: string, next: { long: number; short: number }): void {
  const hedge = ctx.sandbox.engine.positionModeOf(ctx.account, symbol) === 'hedge';
  const slots: Array<[PositionIdx, number]> = hedge ? [[1, next.long], [2, next.short]] : [[0, Math.max(next.long, next.short)]];
  if (slots.some(([idx, leverage]) => leverageAboveTier(ctx.account, symbol, idx, leverage) !== undefined)) {
    throw new ApiError('45044', 'Leverage is not within the suitable range after adjustment');
  }
}

/** One symbol's account settings: leverage per side, margin mode, position mode (ccxt fetchLeverage/fetchMarginMode). */
function symbolAccount(ctx: PrivateContext): Record<string, unknown> {
  const { account, sandbox } = ctx;
  requireUsdtFutures(ctx.query.productType);
  const symbol = symbolOf(ctx.query.symbol);
  const leverage = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  return {
    ...accountView(sandbox, account),
    symbol,
    crossedMarginLeverage: leverage.long,
    isolatedLongLever: leverage.long,
    isolatedShortLever: leverage.short,
    marginMode: marginModeOf(account, symbol) === 'isolated' ? 'isolated' : 'crossed',
    posMode: sandbox.engine.positionModeOf(account, symbol) === 'hedge' ? 'hedge_mode' : 'one_way_mode',
  };
}

/**
 * Change-Hold-Mode is product-wide: "When users hold positions or orders on any side of any trading pair in
 * the specific product type, the request may fail" (40920). A call that changes nothing fails too while
 * anything is open (strictness bitgetSamePositionModeRefused).
 */
function setPositionMode(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox } = ctx;
  requireUsdtFutures(ctx.body.productType);
  const posMode = ctx.body.posMode;
  if (posMode !== 'one_way_mode' && posMode !== 'hedge_mode') throw paramError('posMode must be one_way_mode or hedge_mode');
  const next = posMode === 'hedge_mode' ? 'hedge' : 'oneway';
  const unchanged = account.defaultPositionMode === next && account.positionModes.size === 0;
  if (holdsAnything(account) && (!unchanged || sandbox.strictness.bitgetSamePositionModeRefused)) {
    throw new ApiError('40920', 'Position or order exists, the position mode cannot be switched');
  }
  account.defaultPositionMode = next;
  account.positionModes.clear();
  return { posMode };
}

/** Change-Margin-Mode: "cannot be used when the users have an open position or an order" (45117). */
function setMarginMode(ctx: PrivateContext): Record<string, unknown> {
  const { account, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  if (body.marginMode !== 'isolated' && body.marginMode !== 'crossed') throw paramError('marginMode must be isolated or crossed');
  const next = body.marginMode === 'isolated' ? 'isolated' : 'cross';
  if (marginModeOf(account, symbol) !== next && holdsAnything(account, symbol)) throw new ApiError('45117', 'Currently holding positions or orders, the margin mode cannot be adjusted');
  account.marginModes.set(symbol, next);
  const leverage = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  return { symbol, marginCoin: 'USDT', longLeverage: num(leverage.long), shortLeverage: num(leverage.short), marginMode: body.marginMode };
}

export const bitgetAccountRoutes: RouteTable = {
  'GET /api/v2/spot/account/info': { access: 'read', handle: keyInfo },
  'GET /api/v2/mix/account/account': { access: 'read', handle: symbolAccount },
  'POST /api/v2/mix/account/set-leverage': { access: 'trade', handle: setLeverage },
  'POST /api/v2/mix/account/set-position-mode': { access: 'trade', handle: setPositionMode },
  'POST /api/v2/mix/account/set-margin-mode': { access: 'trade', handle: setMarginMode },
};
