import { ApiError, type PrivateContext, type RequestContext, type RouteTable } from '../http-types';
import { formatNumber as num, findMarket, markets } from '../markets';
import { tiersOf } from '../risk-tiers';
import { bitgetAccountRoutes } from './account';
import { paramError } from './errors';
import { accountView, contractView, positionView } from './format';
import { bitgetOrderRoutes, requireUsdtFutures, symbolOf } from './orders';
import { bitgetPlanRoutes } from './plans';
import { bitgetRecordRoutes } from './records';
import { bitgetTpslRoutes } from './tpsl';

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
      const quote = ctx.sandbox.prices.quote(market.symbol);
      const price = num(quote.last);
      const book = ctx.sandbox.books.get('bitget', market.symbol);
      const [bid] = book.levels('sell', quote.last);
      const [ask] = book.levels('buy', quote.last);
      return {
        symbol: market.symbol, lastPr: price, askPr: num(ask?.price ?? quote.last), bidPr: num(bid?.price ?? quote.last), bidSz: num(bid?.size ?? 0), askSz: num(ask?.size ?? 0),
        high24h: price, low24h: price,
        ts: String(ctx.sandbox.now()), change24h: '0', baseVolume: '0', quoteVolume: '0', usdtVolume: '0', openUtc: price,
        changeUtc24h: '0', indexPrice: num(quote.index), fundingRate: num(ctx.sandbox.funding.rate(market.symbol)), holdingAmount: '0', open24h: price, markPrice: num(quote.mark),
      };
    });
}

/** contract/position/Get-Query-Position-Lever: the symbol's tiers, value ranges in USDT (startUnit, endUnit]. */
function positionTiers(ctx: RequestContext): unknown[] {
  requireUsdtFutures(ctx.query.productType);
  const symbol = symbolOf(ctx.query.symbol);
  const table = tiersOf('bitget', symbol);
  return table.map((tier, index) => ({
    symbol,
    level: String(tier.level),
    startUnit: num(index === 0 ? 0 : (table[index - 1]?.maxValue ?? 0)),
    endUnit: num(tier.maxValue),
    leverage: num(tier.maxLeverage),
    keepMarginRate: num(tier.mmr),
  }));
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
  'GET /api/v2/mix/market/query-position-lever': { access: 'public', handle: positionTiers },
  'GET /api/v2/spot/public/coins': empty,
  'GET /api/v2/spot/public/symbols': empty,
  'GET /api/v2/margin/currencies': empty,
  'GET /api/v3/account/settings': {
    access: 'read',
    handle: () => {
      throw new ApiError('40084', 'You are in Classic Account mode; the unified account API is not available');
    },
  },
  'GET /api/v2/mix/account/accounts': {
    access: 'read',
    handle: (ctx) => {
      const productType = String(ctx.query.productType ?? '').toUpperCase();
      if (!productTypes.includes(productType)) throw paramError('productType is invalid');
      return productType === 'USDT-FUTURES' ? [accountView(ctx.sandbox, ctx.account)] : [];
    },
  },
  'GET /api/v2/mix/position/all-position': { access: 'read', handle: (ctx) => positions(ctx, undefined) },
  'GET /api/v2/mix/position/single-position': { access: 'read', handle: (ctx) => positions(ctx, symbolOf(ctx.query.symbol)) },
  ...bitgetAccountRoutes,
  ...bitgetOrderRoutes,
  ...bitgetPlanRoutes,
  ...bitgetTpslRoutes,
  ...bitgetRecordRoutes,
};
