import { liquidationPrices } from '../liquidation';
import { leverageOf, marginSummary, positionMargin, unrealisedOf } from '../margin';
import { decimalsOf, formatNumber as num, type MarketSpec } from '../markets';
import { tierFor } from '../risk-tiers';
import type { Sandbox } from '../sandbox';
import type { Account, Order, OrderStatus, Position } from '../types';

const stateText: Record<OrderStatus, string> = {
  new: 'live',
  partially_filled: 'partially_filled',
  filled: 'filled',
  cancelled: 'canceled',
  untriggered: 'live',
  triggered: 'executed',
  deactivated: 'canceled',
  rejected: 'canceled',
};

const planStatusText: Record<OrderStatus, string> = {
  new: 'live',
  partially_filled: 'executed',
  filled: 'executed',
  cancelled: 'cancelled',
  untriggered: 'live',
  triggered: 'executed',
  deactivated: 'cancelled',
  rejected: 'fail_execute',
};

export function contractView(market: MarketSpec): Record<string, unknown> {
  const pricePlace = decimalsOf(market.tickSize);
  return {
    symbol: market.symbol,
    baseCoin: market.base,
    quoteCoin: market.quote,
    buyLimitPriceRatio: '0.05',
    sellLimitPriceRatio: '0.05',
    feeRateUpRatio: '0.005',
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
    openCostUpRatio: '0.01',
    supportMarginCoins: ['USDT'],
    minTradeNum: num(market.minQty),
    priceEndStep: num(Math.round(market.tickSize * 10 ** pricePlace)),
    volumePlace: String(decimalsOf(market.qtyStep)),
    pricePlace: String(pricePlace),
    sizeMultiplier: num(market.qtyStep),
    symbolType: 'perpetual',
    minTradeUSDT: num(market.minNotional),
    maxMarketOrderQty: num(market.maxMktQty),
    maxOrderQty: num(market.maxQty),
    maxSymbolOrderNum: '200',
    maxProductOrderNum: '400',
    maxPositionNum: '150',
    symbolStatus: 'normal',
    offTime: '-1',
    limitOpenTime: '-1',
    deliveryTime: '',
    deliveryStartTime: '',
    deliveryPeriod: '',
    launchTime: '',
    fundInterval: '8',
    minLever: '1',
    maxLever: String(market.maxLeverage),
    posLimit: '0.05',
    maintainTime: '',
  };
}

function common(sandbox: Sandbox, account: Account, order: Order): Record<string, unknown> {
  const hedge = order.positionIdx !== 0;
  const flipped = order.side === 'buy' ? 'sell' : 'buy';
  return {
    symbol: order.symbol,
    size: num(order.qty),
    orderId: order.id,
    clientOid: order.clientId,
    side: order.labels.side ?? (hedge && order.reduceOnly ? flipped : order.side),
    posSide: hedge ? (order.positionIdx === 1 ? 'long' : 'short') : 'net',
    tradeSide: order.labels.tradeSide ?? (hedge ? (order.reduceOnly ? 'close' : 'open') : `${order.side}_single`),
    posMode: hedge ? 'hedge_mode' : 'one_way_mode',
    marginCoin: 'USDT',
    marginMode: (account.marginModes.get(order.symbol) ?? account.defaultMarginMode) === 'isolated' ? 'isolated' : 'crossed',
    orderType: order.type,
    reduceOnly: order.reduceOnly ? 'YES' : 'NO',
    enterPointSource: 'API',
    leverage: num(leverageOf(account, order.symbol, order.positionIdx, order.side === 'buy' ? 'long' : 'short')),
    cTime: String(order.createdAt),
    uTime: String(order.updatedAt),
    markPrice: num(sandbox.prices.mark(order.symbol)),
  };
}

export function orderView(sandbox: Sandbox, account: Account, order: Order): Record<string, unknown> {
  return {
    ...common(sandbox, account, order),
    baseVolume: num(order.filledQty),
    fee: num(-order.fee),
    price: num(order.price),
    priceAvg: order.filledQty > 0 ? num(order.avgPrice) : '',
    state: stateText[order.status],
    force: order.type === 'market' ? 'gtc' : (order.labels.force ?? 'gtc'),
    totalProfits: '0',
    presetStopSurplusPrice: order.takeProfit ? num(order.takeProfit) : '',
    presetStopLossPrice: order.stopLoss ? num(order.stopLoss) : '',
    quoteVolume: num(order.cumValue),
    orderSource: order.labels.orderSource ?? 'normal',
    cancelReason: '',
  };
}

export function planView(sandbox: Sandbox, account: Account, order: Order): Record<string, unknown> {
  return {
    ...common(sandbox, account, order),
    planType: order.labels.planType ?? 'normal_plan',
    price: num(order.price),
    executePrice: num(order.price),
    triggerPrice: num(order.triggerPrice || order.trailing?.activation || 0),
    triggerType: order.labels.triggerType ?? 'mark_price',
    callbackRatio: order.trailing?.ratio !== undefined ? num(order.trailing.ratio) : '',
    planStatus: planStatusText[order.status],
    stopSurplusTriggerPrice: order.labels.tpsl === 'tp' ? num(order.triggerPrice) : '',
    stopLossTriggerPrice: order.labels.tpsl === 'sl' ? num(order.triggerPrice) : '',
    baseVolume: num(order.filledQty),
    priceAvg: order.filledQty > 0 ? num(order.avgPrice) : '',
  };
}

/** An open position: `liquidationPrice` as liquidation.ts computes it ("0" when no price liquidates it), on the mark price. */
export function positionView(sandbox: Sandbox, account: Account, position: Position): Record<string, unknown> {
  const mark = sandbox.prices.mark(position.symbol);
  const leverage = leverageOf(account, position.symbol, position.idx, position.side);
  const margin = positionMargin(account, position);
  const prices = liquidationPrices(account, position, (symbol) => sandbox.prices.mark(symbol));
  const tier = tierFor('bitget', position.symbol, position.size * position.entryPrice);
  const marginMode = account.marginModes.get(position.symbol) ?? account.defaultMarginMode;
  return {
    marginCoin: 'USDT',
    symbol: position.symbol,
    holdSide: position.side,
    openDelegateSize: '0',
    marginSize: num(margin),
    available: num(position.size),
    locked: '0',
    total: num(position.size),
    leverage: num(leverage),
    achievedProfits: num(position.realisedPnl),
    openPriceAvg: num(position.entryPrice),
    marginMode: marginMode === 'isolated' ? 'isolated' : 'crossed',
    posMode: position.idx === 0 ? 'one_way_mode' : 'hedge_mode',
    unrealizedPL: num(unrealisedOf(position, mark)),
    liquidationPrice: num(prices?.liq ?? 0),
    keepMarginRate: num(tier.mmr),
    markPrice: num(mark),
    marginRatio: '0.01',
    breakEvenPrice: num(position.entryPrice),
    totalFee: num(-position.openFee),
    deductedFee: '0',
    takeProfit: '',
    stopLoss: '',
    autoMargin: 'off',
    cTime: String(position.createdAt),
    uTime: String(position.updatedAt),
  };
}

export function accountView(sandbox: Sandbox, account: Account): Record<string, unknown> {
  const summary = marginSummary(account, (symbol) => sandbox.prices.mark(symbol));
  const free = num(Math.max(summary.available, 0));
  return {
    marginCoin: 'USDT',
    locked: num(summary.orderIM),
    available: num(summary.wallet),
    crossedMaxAvailable: free,
    isolatedMaxAvailable: free,
    maxTransferOut: free,
    accountEquity: num(summary.equity),
    usdtEquity: num(summary.equity),
    btcEquity: num(summary.equity / sandbox.prices.mark('BTCUSDT')),
    crossedRiskRate: '0',
    unrealizedPL: num(summary.unrealised),
    coupon: '0',
    crossedUnrealizedPL: num(summary.unrealised),
    isolatedUnrealizedPL: '0',
    assetMode: 'single',
  };
}
