import { findMarket, formatNumber as num, markets } from '../markets';
import { tiersOf } from '../risk-tiers';
import type { PrivateContext, RequestContext, RouteTable } from '../http-types';
import { paramError } from './errors';
import { instrumentView, walletView } from './format';
import { bybitOrderRoutes } from './orders';
import { bybitPositionRoutes } from './positions';
import { bybitRecordRoutes } from './records';

function serverTime(ctx: RequestContext): Record<string, string> {
  const now = ctx.sandbox.now();
  return { timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` };
}

/** Linear perpetuals; PreLaunch and every other category answer an empty list. */
function instruments(ctx: RequestContext): Record<string, unknown> {
  const { category, status, symbol } = ctx.query;
  if (!category) throw paramError('category is required');
  const listed = category === 'linear' && (status === undefined || status === 'Trading');
  const list = listed ? markets.filter((market) => !symbol || market.symbol === symbol).map(instrumentView) : [];
  return { category, list, nextPageCursor: '' };
}

function tickers(ctx: RequestContext): Record<string, unknown> {
  const { category, symbol } = ctx.query;
  if (!category) throw paramError('category is required');
  const rows = category === 'linear' ? markets.filter((market) => !symbol || market.symbol === symbol) : [];
  const { funding } = ctx.sandbox;
  const list = rows.map((market) => {
    const quote = ctx.sandbox.prices.quote(market.symbol);
    const price = num(quote.last);
    const book = ctx.sandbox.books.get('bybit', market.symbol);
    const [bid] = book.levels('sell', quote.last);
    const [ask] = book.levels('buy', quote.last);
    return {
      symbol: market.symbol, lastPrice: price, markPrice: num(quote.mark), indexPrice: num(quote.index), bid1Price: num(bid?.price ?? quote.last), ask1Price: num(ask?.price ?? quote.last),
      bid1Size: num(bid?.size ?? 0), ask1Size: num(ask?.size ?? 0), prevPrice24h: price, price24hPcnt: '0', highPrice24h: price, lowPrice24h: price,
      volume24h: '0', turnover24h: '0', fundingRate: num(funding.rate(market.symbol)), nextFundingTime: String(funding.next()), openInterest: '0',
    };
  });
  return { category, list };
}

/** docs/v5/market/risk-limit.mdx: the tiers of one symbol or of every linear symbol. */
function riskLimit(ctx: RequestContext): Record<string, unknown> {
  const { category, symbol } = ctx.query;
  if (category !== 'linear' && category !== 'inverse') throw paramError('category only support linear or inverse');
  if (symbol && !findMarket(symbol)) throw paramError('symbol invalid');
  const chosen = category === 'linear' ? markets.filter((market) => !symbol || market.symbol === symbol) : [];
  const list = chosen.flatMap((market) =>
    tiersOf('bybit', market.symbol).map((tier) => ({
      id: tier.level,
      symbol: market.symbol,
      riskLimitValue: num(tier.maxValue),
      maintenanceMargin: num(tier.mmr),
      initialMargin: num(tier.imr),
      isLowestRisk: tier.level === 1 ? 1 : 0,
      maxLeverage: tier.maxLeverage.toFixed(2),
      mmDeduction: tier.level === 1 ? '' : num(tier.mmDeduction),
    })),
  );
  return { category, list, nextPageCursor: '' };
}

function apiKeyInfo(ctx: PrivateContext): Record<string, unknown> {
  const { account } = ctx;
  return {
    id: account.uid,
    note: account.label,
    apiKey: account.apiKey,
    readOnly: account.permissions.trade ? 0 : 1,
    secret: '',
    permissions: {
      ContractTrade: ['Order', 'Position'],
      Spot: [],
      Wallet: account.permissions.withdraw ? ['AccountTransfer', 'Withdraw'] : [],
      Options: [],
      Derivatives: ['DerivativesTrade'],
      CopyTrading: [],
      BlockTrade: [],
      Exchange: [],
      NFT: [],
      Affiliate: [],
      Earn: [],
    },
    ips: account.ips.length ? [...account.ips] : ['*'],
    type: account.origin === 'oauth' ? 2 : 1,
    deadlineDay: account.ips.length ? -1 : 90,
    expiredAt: account.ips.length ? '' : new Date(account.createdAt + 90 * 86_400_000).toISOString(),
    createdAt: new Date(account.createdAt).toISOString(),
    unified: 0,
    uta: 1,
    userID: Number(account.uid),
    inviterID: 0,
    vipLevel: 'No VIP',
    mktMakerLevel: '0',
    affiliateID: 0,
    rsaPublicKey: '',
    isMaster: true,
    parentUid: '0',
    kycLevel: 'LEVEL_DEFAULT',
    kycRegion: '',
  };
}

export const bybitRoutes: RouteTable = {
  'GET /v5/market/time': { access: 'public', handle: serverTime },
  'GET /v5/market/instruments-info': { access: 'public', handle: instruments },
  'GET /v5/market/tickers': { access: 'public', handle: tickers },
  'GET /v5/market/risk-limit': { access: 'public', handle: riskLimit },
  'GET /v5/user/query-api': { access: 'read', handle: apiKeyInfo },
  'GET /v5/account/info': {
    access: 'read',
    handle: (ctx) => ({
      unifiedMarginStatus: 6,
      marginMode: ctx.account.defaultMarginMode === 'isolated' ? 'ISOLATED_MARGIN' : 'REGULAR_MARGIN',
      isMasterTrader: false,
      spotHedgingStatus: 'OFF',
      updatedTime: String(ctx.account.createdAt),
    }),
  },
  'GET /v5/account/wallet-balance': {
    access: 'read',
    handle: (ctx) => {
      if (ctx.query.accountType !== 'UNIFIED') throw paramError('accountType only support UNIFIED');
      return { list: [walletView(ctx.sandbox, ctx.account)] };
    },
  },
  'GET /v5/asset/coin/query-info': { access: 'read', handle: () => ({ rows: [] }) },
  ...bybitOrderRoutes,
  ...bybitPositionRoutes,
  ...bybitRecordRoutes,
};
