import { ApiError, numberParam, text, type PrivateContext, type RequestContext, type RouteTable } from '../http-types';
import { formatNumber as num, findMarket, markets } from '../markets';
import { isOpen } from '../types';
import { paramError } from './errors';
import { accountView, contractView, positionView } from './format';
import { bitgetOrderRoutes, requireUsdtFutures, symbolOf } from './orders';
import { bitgetPlanRoutes } from './plans';

const productTypes = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES', 'SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES'];

function contracts(ctx: RequestContext): unknown[] {
  const productType = String(ctx.query.productType ?? '').toUpperCase();
  if (!productTypes.includes(productType)) throw paramError('productType is invalid');
  if (productType !== 'USDT-FUTURES') return [];
  return markets.filter((market) => !ctx.query.symbol || market.symbol === ctx.query.symbol).map(contractView);
}

function tickers(ctx: RequestContext): unknown[] {
  requireUsdtFutures(ctx.query.productType);
  const symbol = ctx.query.symbol;
  if (symbol !== undefined && !findMarket(symbol)) throw new ApiError('40034', 'Parameter symbol does not exist');
  return markets
    .filter((market) => !symbol || market.symbol === symbol)
    .map((market) => {
      const mark = ctx.sandbox.prices.get(market.symbol);
      const price = num(mark);
      const book = ctx.sandbox.books.get('bitget', market.symbol);
      const [bid] = book.levels('sell', mark);
      const [ask] = book.levels('buy', mark);
      return {
        symbol: market.symbol, lastPr: price, askPr: num(ask?.price ?? mark), bidPr: num(bid?.price ?? mark), bidSz: num(bid?.size ?? 0), askSz: num(ask?.size ?? 0),
        high24h: price, low24h: price,
        ts: String(ctx.sandbox.now()), change24h: '0', baseVolume: '0', quoteVolume: '0', usdtVolume: '0', openUtc: price,
        changeUtc24h: '0', indexPrice: price, fundingRate: '0.0001', holdingAmount: '0', open24h: price, markPrice: price,
      };
    });
}

function keyInfo(ctx: PrivateContext): Record<string, unknown> {
  const { account } = ctx;
  const authorities = account.permissions.trade ? ['coow', 'cpow'] : ['coor', 'cpor'];
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

function setLeverage(ctx: PrivateContext): Record<string, unknown> {
  const { account, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  const leverage = numberParam(body.leverage);
  const max = findMarket(symbol)?.maxLeverage ?? 1;
  if (leverage === undefined || !(leverage >= 1 && leverage <= max)) throw paramError(`leverage must be between 1 and ${max}`);
  const current = { ...(account.leverage.get(symbol) ?? { long: 10, short: 10 }) };
  const holdSide = text(body.holdSide);
  if (holdSide !== 'short') current.long = leverage;
  if (holdSide !== 'long') current.short = leverage;
  account.leverage.set(symbol, current);
  const marginMode = (account.marginModes.get(symbol) ?? account.defaultMarginMode) === 'isolated' ? 'isolated' : 'crossed';
  return { symbol, marginCoin: 'USDT', longLeverage: num(current.long), shortLeverage: num(current.short), crossMarginLeverage: num(current.long), marginMode };
}

/** One symbol's account settings: leverage per side, margin mode, position mode (ccxt fetchLeverage/fetchMarginMode). */
function symbolAccount(ctx: PrivateContext): Record<string, unknown> {
  const { account, sandbox } = ctx;
  requireUsdtFutures(ctx.query.productType);
  const symbol = symbolOf(ctx.query.symbol);
  const leverage = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  const marginMode = (account.marginModes.get(symbol) ?? account.defaultMarginMode) === 'isolated' ? 'isolated' : 'crossed';
  return {
    ...accountView(sandbox, account),
    symbol,
    crossedMarginLeverage: leverage.long,
    isolatedLongLever: leverage.long,
    isolatedShortLever: leverage.short,
    marginMode,
    posMode: sandbox.engine.positionModeOf(account, symbol) === 'hedge' ? 'hedge_mode' : 'one_way_mode',
  };
}

function busy(ctx: PrivateContext, symbol?: string): boolean {
  const { account } = ctx;
  return (
    [...account.positions.values()].some((position) => position.side && (!symbol || position.symbol === symbol)) ||
    account.orders.some((order) => isOpen(order) && (!symbol || order.symbol === symbol))
  );
}

function setPositionMode(ctx: PrivateContext): Record<string, string> {
  requireUsdtFutures(ctx.body.productType);
  const posMode = ctx.body.posMode;
  if (posMode !== 'one_way_mode' && posMode !== 'hedge_mode') throw paramError('posMode must be one_way_mode or hedge_mode');
  const next = posMode === 'hedge_mode' ? 'hedge' : 'oneway';
  const unchanged = ctx.account.defaultPositionMode === next && ctx.account.positionModes.size === 0;
  if (!unchanged && busy(ctx)) throw new ApiError('45117', 'Currently holding positions or orders, the mode cannot be adjusted');
  ctx.account.defaultPositionMode = next;
  ctx.account.positionModes.clear();
  return { posMode };
}

function setMarginMode(ctx: PrivateContext): Record<string, unknown> {
  const { account, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  if (body.marginMode !== 'isolated' && body.marginMode !== 'crossed') throw paramError('marginMode must be isolated or crossed');
  const next = body.marginMode === 'isolated' ? 'isolated' : 'cross';
  const current = account.marginModes.get(symbol) ?? account.defaultMarginMode;
  if (current !== next && busy(ctx, symbol)) throw new ApiError('45117', 'Currently holding positions or orders, the margin mode cannot be adjusted');
  account.marginModes.set(symbol, next);
  const leverage = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  return { symbol, marginCoin: 'USDT', longLeverage: num(leverage.long), shortLeverage: num(leverage.short), marginMode: body.marginMode };
}

/** Bitget lists only open positions. */
function positions(ctx: PrivateContext, symbol: string | undefined): unknown[] {
  const { account, sandbox } = ctx;
  requireUsdtFutures(ctx.query.productType);
  return [...account.positions.values()]
    .filter((position) => position.side && (!symbol || position.symbol === symbol))
    .sort((a, b) => a.createdAt - b.createdAt || a.idx - b.idx)
    .map((position) => positionView(sandbox, account, position));
}

const empty = { access: 'public' as const, handle: () => [] };

export const bitgetRoutes: RouteTable = {
  'GET /api/v2/public/time': { access: 'public', handle: (ctx) => ({ serverTime: String(ctx.sandbox.now()) }) },
  'GET /api/v2/mix/market/contracts': { access: 'public', handle: contracts },
  'GET /api/v2/mix/market/ticker': { access: 'public', handle: tickers },
  'GET /api/v2/mix/market/tickers': { access: 'public', handle: tickers },
  'GET /api/v2/spot/public/coins': empty,
  'GET /api/v2/spot/public/symbols': empty,
  'GET /api/v2/margin/currencies': empty,
  'GET /api/v3/account/settings': {
    access: 'read',
    handle: () => {
      throw new ApiError('40084', 'You are in Classic Account mode; the unified account API is not available');
    },
  },
  'GET /api/v2/spot/account/info': { access: 'read', handle: keyInfo },
  'GET /api/v2/mix/account/accounts': {
    access: 'read',
    handle: (ctx) => {
      const productType = String(ctx.query.productType ?? '').toUpperCase();
      if (!productTypes.includes(productType)) throw paramError('productType is invalid');
      return productType === 'USDT-FUTURES' ? [accountView(ctx.sandbox, ctx.account)] : [];
    },
  },
  'GET /api/v2/mix/account/account': { access: 'read', handle: symbolAccount },
  'POST /api/v2/mix/account/set-leverage': { access: 'trade', handle: setLeverage },
  'POST /api/v2/mix/account/set-position-mode': { access: 'trade', handle: setPositionMode },
  'POST /api/v2/mix/account/set-margin-mode': { access: 'trade', handle: setMarginMode },
  'GET /api/v2/mix/position/all-position': { access: 'read', handle: (ctx) => positions(ctx, undefined) },
  'GET /api/v2/mix/position/single-position': { access: 'read', handle: (ctx) => positions(ctx, symbolOf(ctx.query.symbol)) },
  ...bitgetOrderRoutes,
  ...bitgetPlanRoutes,
};
