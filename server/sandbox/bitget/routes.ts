import { ApiError, type PrivateContext, type RequestContext, type RouteTable } from '../http-types';
import { formatNumber as num, findMarket, markets } from '../markets';
import { bitgetAccountRoutes } from './account';
import { paramError } from './errors';
import { accountView, contractView, positionView } from './format';
import { bitgetOrderRoutes, requireUsdtFutures, symbolOf } from './orders';
import { bitgetPlanRoutes } from './plans';
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
};
