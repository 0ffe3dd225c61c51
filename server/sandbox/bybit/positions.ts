import { EngineError } from '../engine-error';
import { findMarket } from '../markets';
import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Position, PositionIdx } from '../types';
import { isOpen } from '../types';
import { leverageAboveTier } from '../risk-tiers';
import { checkPartialRoom, checkProtectionSide, checkTrailingActivation, notModified, priceKindOf, triggerByOf, type ProtectionLeg, type TriggerBy } from './checks';
import { paramError } from './errors';
import { positionView } from './format';

function marketOf(symbol: unknown): string {
  const id = text(symbol) ?? '';
  if (!findMarket(id)) throw new EngineError('unknownSymbol', `Unknown symbol ${id}`);
  return id;
}

/** By symbol Bybit always answers the slot rows (a flat row with size "0"); by settleCoin only open positions. */
function listPositions(ctx: PrivateContext): Record<string, unknown> {
  const q = ctx.query;
  if (q.category !== 'linear') throw paramError('category only support linear');
  if (!q.symbol && !q.settleCoin && !q.baseCoin) throw paramError('symbol or settleCoin is required');
  const { account, sandbox } = ctx;
  let rows: Position[];
  if (q.symbol) {
    const symbol = marketOf(q.symbol);
    const idxs: PositionIdx[] = sandbox.engine.positionModeOf(account, symbol) === 'hedge' ? [1, 2] : [0];
    rows = idxs.map((idx) => sandbox.engine.slot(account, symbol, idx));
  } else {
    rows = [...account.positions.values()].filter((position) => position.side !== null);
  }
  return { category: 'linear', list: rows.map((position) => positionView(sandbox, account, position)), nextPageCursor: '' };
}

function setLeverage(ctx: PrivateContext): Record<string, never> {
  const { sandbox } = ctx;
  const symbol = marketOf(ctx.body.symbol);
  const buy = numberParam(ctx.body.buyLeverage);
  const sell = numberParam(ctx.body.sellLeverage);
  const max = findMarket(symbol)?.maxLeverage ?? 1;
  if (buy === undefined || sell === undefined || !(buy >= 1 && buy <= max) || !(sell >= 1 && sell <= max)) {
    throw new ApiError('10001', `params error: leverage must be between 1 and ${max}`);
  }
  const current = ctx.account.leverage.get(symbol) ?? { long: 10, short: 10 };
  if (current.long === buy && current.short === sell) throw new ApiError('110043', 'Set leverage not modified');
  // docs/v5/error.mdx 110013: the leverage is above what the risk tier of the position's value allows.
  const slots: Array<[PositionIdx, number]> = sandbox.engine.positionModeOf(ctx.account, symbol) === 'hedge' ? [[1, buy], [2, sell]] : [[0, Math.max(buy, sell)]];
  if (slots.some(([idx, leverage]) => leverageAboveTier(ctx.account, symbol, idx, leverage) !== undefined)) {
    throw new ApiError('110013', 'Cannot set leverage due to risk limit level.');
  }
  ctx.account.leverage.set(symbol, { long: buy, short: sell });
  const idxs: PositionIdx[] = ctx.sandbox.engine.positionModeOf(ctx.account, symbol) === 'hedge' ? [1, 2] : [0];
  for (const idx of idxs) ctx.sandbox.engine.positionChanged(ctx.account, ctx.sandbox.engine.slot(ctx.account, symbol, idx));
  return {};
}

function switchMode(ctx: PrivateContext): Record<string, never> {
  const mode = Number(ctx.body.mode);
  if (mode !== 0 && mode !== 3) throw paramError('mode must be 0 or 3');
  const next = mode === 3 ? 'hedge' : 'oneway';
  const { account, sandbox } = ctx;
  const symbol = text(ctx.body.symbol);
  if (!symbol && ctx.body.coin !== 'USDT') throw paramError('symbol or coin is required');
  const symbols = symbol ? [marketOf(symbol)] : undefined;
  const touches = (name: string) => !symbols || symbols.includes(name);
  if (symbols && symbols.every((name) => sandbox.engine.positionModeOf(account, name) === next)) {
    throw new ApiError('110025', 'Position mode is not modified');
  }
  if ([...account.positions.values()].some((position) => position.side && touches(position.symbol))) {
    throw new ApiError('110024', 'You have an existing position, so position mode cannot be switched');
  }
  if (account.orders.some((order) => isOpen(order) && touches(order.symbol))) {
    throw new ApiError('110028', 'You have existing open orders, so position mode cannot be switched');
  }
  if (symbols) for (const name of symbols) account.positionModes.set(name, next);
  else {
    account.defaultPositionMode = next;
    account.positionModes.clear();
  }
  return {};
}

function setMarginMode(ctx: PrivateContext): { reasons: never[] } {
  const wanted = ctx.body.setMarginMode;
  if (wanted !== 'ISOLATED_MARGIN' && wanted !== 'REGULAR_MARGIN') throw paramError('setMarginMode must be ISOLATED_MARGIN or REGULAR_MARGIN');
  const next = wanted === 'ISOLATED_MARGIN' ? 'isolated' : 'cross';
  if (ctx.account.defaultMarginMode === next) throw new ApiError('110026', 'Cross/isolated margin mode is not modified');
  if ([...ctx.account.positions.values()].some((position) => position.side)) {
    throw new ApiError('3400045', 'Set margin mode failed: the account has open positions');
  }
  ctx.account.defaultMarginMode = next;
  return { reasons: [] };
}

/**
 * trading-stop's own parameter rules (docs/v5/position/trading-stop.mdx): `tpslMode` is required ("true" in the
 * page's table; the older contract page let it default, so this is the stricter of the two readings), and in
 * Partial mode "the value of tpSize and slSize must equal". Both are parameter errors, 10001 (no code named).
 */
export const TPSL_MODE_REQUIRED_TEXT = 'params error: tpslMode is required';
export const TPSL_SIZES_DIFFER_TEXT = 'params error: the value of tpSize and slSize must equal';

function tpslModeOf(body: Record<string, unknown>): 'Full' | 'Partial' {
  const mode = text(body.tpslMode);
  if (mode === undefined || mode === '') throw new ApiError('10001', TPSL_MODE_REQUIRED_TEXT);
  if (mode !== 'Full' && mode !== 'Partial') throw paramError('tpslMode must be Full or Partial');
  if (mode === 'Partial' && body.tpSize !== undefined && body.slSize !== undefined && numberParam(body.tpSize) !== numberParam(body.slSize)) {
    throw new ApiError('10001', TPSL_SIZES_DIFFER_TEXT);
  }
  return mode;
}

interface StopRequest {
  takeProfit: number | undefined;
  stopLoss: number | undefined;
  trailing: number | undefined;
  activePrice: number | undefined;
  tpBy: TriggerBy;
  slBy: TriggerBy;
  partial: boolean;
}

function stopRequestOf(body: Record<string, unknown>): StopRequest {
  const partial = tpslModeOf(body) === 'Partial';
  const request = {
    takeProfit: numberParam(body.takeProfit),
    stopLoss: numberParam(body.stopLoss),
    trailing: numberParam(body.trailingStop),
    activePrice: numberParam(body.activePrice),
    tpBy: triggerByOf(body.tpTriggerBy),
    slBy: triggerByOf(body.slTriggerBy),
    partial,
  };
  if ([request.takeProfit, request.stopLoss, request.trailing, request.activePrice].some((value) => Number.isNaN(value) || (value !== undefined && value < 0))) {
    throw paramError('prices must be non-negative numbers');
  }
  return request;
}

/**
 * Position TP/SL (Full: the position's own; Partial: sized legs) and the trailing stop (a price distance).
 * Refused as Bybit refuses: the parameter rules above, TP/SL on the wrong side of the price its triggerBy
 * names and a trailing activation the market has passed (10001), a 21st Partial leg (110061), a Full-mode call
 * that changes nothing (34040 "Not modified").
 */
function tradingStop(ctx: PrivateContext): Record<string, never> {
  const { account, sandbox, body } = ctx;
  if (body.category !== 'linear') throw paramError('category only support linear');
  const symbol = marketOf(body.symbol);
  const idx = Number(body.positionIdx ?? 0);
  if (idx !== 0 && idx !== 1 && idx !== 2) throw paramError('positionIdx must be 0, 1 or 2');
  const mode = sandbox.engine.positionModeOf(account, symbol);
  if ((mode === 'oneway') !== (idx === 0)) throw new EngineError('positionModeMismatch', 'position idx not match position mode');
  const stop = stopRequestOf(body);
  const position = sandbox.engine.slot(account, symbol, idx);
  if (!position.side) throw new EngineError('noPosition', 'zero position');
  const quote = sandbox.prices.quote(symbol);
  const leg = (price: number | undefined, by: TriggerBy): ProtectionLeg => ({ price, by, base: quote[priceKindOf(by)] });
  checkProtectionSide(position.side, leg(stop.takeProfit, stop.tpBy), leg(stop.stopLoss, stop.slBy));
  if (stop.trailing && stop.activePrice) checkTrailingActivation(position, quote.last, stop.activePrice);
  const legs: Array<['tp' | 'sl', number, unknown]> = [];
  if (stop.partial && stop.takeProfit) legs.push(['tp', stop.takeProfit, body.tpSize]);
  if (stop.partial && stop.stopLoss) legs.push(['sl', stop.stopLoss, body.slSize]);
  if (stop.partial) checkPartialRoom(account, symbol, idx, legs.length);
  const trailingChanges = stop.trailing !== undefined && (stop.trailing !== (position.trailing?.distance ?? 0) || (stop.activePrice || undefined) !== position.trailing?.activation);
  const fullChanges = !stop.partial && ((stop.takeProfit !== undefined && stop.takeProfit !== position.takeProfit) || (stop.stopLoss !== undefined && stop.stopLoss !== position.stopLoss));
  if (!legs.length && !fullChanges && !trailingChanges) throw notModified();

  const exitSide = position.side === 'long' ? 'sell' : 'buy';
  for (const [kind, trigger, size] of legs) {
    sandbox.engine.place(account, {
      symbol, side: exitSide, type: 'market', qty: numberParam(size) ?? position.size, price: 0, reduceOnly: true, positionIdx: idx, clientId: '', kind: 'tpsl',
      triggerPrice: trigger, tpslMode: 'Partial', triggerOn: priceKindOf(kind === 'tp' ? stop.tpBy : stop.slBy),
      labels: { tpsl: kind, stopOrderType: kind === 'tp' ? 'PartialTakeProfit' : 'PartialStopLoss' },
    });
  }
  if (!stop.partial && stop.takeProfit !== undefined) Object.assign(position, { takeProfit: stop.takeProfit, tpTriggerOn: priceKindOf(stop.tpBy) });
  if (!stop.partial && stop.stopLoss !== undefined) Object.assign(position, { stopLoss: stop.stopLoss, slTriggerOn: priceKindOf(stop.slBy) });
  if (trailingChanges) setTrailing(position, quote.last, stop.trailing ?? 0, stop.activePrice);
  position.updatedAt = sandbox.now();
  sandbox.engine.positionChanged(account, position);
  return {};
}

/** A trailing stop starts active when it has no activation price (or the market is already past it). */
function setTrailing(position: Position, mark: number, distance: number, activePrice: number | undefined): void {
  position.trailing = distance > 0 ? { distance, activation: activePrice || undefined, active: false, extreme: 0 } : undefined;
  if (!position.trailing) return;
  const reached = !position.trailing.activation || (position.side === 'long' ? mark >= position.trailing.activation : mark <= position.trailing.activation);
  if (reached) Object.assign(position.trailing, { active: true, extreme: mark });
}

export const bybitPositionRoutes: RouteTable = {
  'GET /v5/position/list': { access: 'read', handle: listPositions },
  'POST /v5/position/set-leverage': { access: 'trade', handle: setLeverage },
  'POST /v5/position/switch-mode': { access: 'trade', handle: switchMode },
  'POST /v5/account/set-margin-mode': { access: 'trade', handle: setMarginMode },
  'POST /v5/position/trading-stop': { access: 'trade', handle: tradingStop },
};
