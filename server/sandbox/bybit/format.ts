import { liquidationPrices } from '../liquidation';
import { leverageOf, marginSummary, positionMargin, unrealisedOf } from '../margin';
import { formatNumber as num, type MarketSpec } from '../markets';
import { maintenanceMargin, tierFor } from '../risk-tiers';
import type { Sandbox } from '../sandbox';
import type { Account, Order, OrderStatus, Position } from '../types';
import { triggerByText } from './checks';

/** Bybit's cancelType (docs/v5/enum.mdx): a market order's unfilled rest has none of the named reasons. */
function cancelTypeOf(order: Order): string {
  switch (order.cancelReason) {
    case 'user':
      return 'CancelByUser';
    case 'reduceOnly':
      return 'CancelByReduceOnly';
    case 'positionClosed':
      return order.kind === 'normal' ? 'CancelByReduceOnly' : 'CancelByTpSlTsClear';
    case 'liquidation':
      return 'CancelAllBeforeLiq';
    default:
      return 'UNKNOWN';
  }
}

const statusText: Record<OrderStatus, string> = {
  new: 'New',
  partially_filled: 'PartiallyFilled',
  filled: 'Filled',
  cancelled: 'Cancelled',
  untriggered: 'Untriggered',
  triggered: 'Triggered',
  deactivated: 'Deactivated',
  rejected: 'Rejected',
};

export function instrumentView(market: MarketSpec): Record<string, unknown> {
  return {
    symbol: market.symbol,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: market.base,
    quoteCoin: market.quote,
    settleCoin: 'USDT',
    launchTime: '1585526400000',
    deliveryTime: '0',
    deliveryFeeRate: '',
    priceScale: String(Math.max(0, -Math.floor(Math.log10(market.tickSize) + 1e-9))),
    leverageFilter: { minLeverage: '1', maxLeverage: num(market.maxLeverage), leverageStep: '0.01' },
    priceFilter: { minPrice: num(market.tickSize), maxPrice: num(market.startPrice * 1000), tickSize: num(market.tickSize) },
    lotSizeFilter: {
      maxOrderQty: num(market.maxQty),
      minOrderQty: num(market.minQty),
      qtyStep: num(market.qtyStep),
      postOnlyMaxOrderQty: num(market.maxQty),
      maxMktOrderQty: num(market.maxMktQty),
      minNotionalValue: num(market.minNotional),
    },
    unifiedMarginTrade: true,
    fundingInterval: 480,
    copyTrading: 'both',
    upperFundingRate: '0.00375',
    lowerFundingRate: '-0.00375',
  };
}

/** Bybit's createType (docs/v5/enum.mdx): who made the order; a liquidation's takeover (label `liquidation`) CreateByTakeOver_PassThrough. */
export function createTypeOf(order: Order): string {
  if (order.labels.liquidation) return 'CreateByTakeOver_PassThrough';
  const byStop: Record<string, string> = {
    Stop: 'CreateByStopOrder', TakeProfit: 'CreateByTakeProfit', StopLoss: 'CreateByStopLoss', TrailingStop: 'CreateByTrailingStop',
    PartialTakeProfit: 'CreateByPartialTakeProfit', PartialStopLoss: 'CreateByPartialStopLoss',
  };
  return byStop[order.labels.stopOrderType ?? ''] ?? 'CreateByUser';
}

export function orderView(order: Order): Record<string, unknown> {
  const leaves = order.status === 'new' || order.status === 'partially_filled' || order.status === 'untriggered' ? order.qty - order.filledQty : 0;
  return {
    orderId: order.id,
    orderLinkId: order.clientId,
    blockTradeId: '',
    symbol: order.symbol,
    price: num(order.price),
    qty: num(order.qty),
    side: order.side === 'buy' ? 'Buy' : 'Sell',
    isLeverage: '',
    positionIdx: order.positionIdx,
    orderStatus: statusText[order.status],
    cancelType: cancelTypeOf(order),
    rejectReason: order.labels.rejectReason ?? 'EC_NoError',
    avgPrice: order.filledQty > 0 ? num(order.avgPrice) : '0',
    leavesQty: num(leaves),
    leavesValue: num(leaves * order.price),
    cumExecQty: num(order.filledQty),
    cumExecValue: num(order.cumValue),
    cumExecFee: num(order.fee),
    cumFeeDetail: order.fee > 0 ? { USDT: num(order.fee) } : {},
    timeInForce: order.type === 'market' ? 'IOC' : (order.labels.timeInForce ?? 'GTC'),
    orderType: order.type === 'market' ? 'Market' : 'Limit',
    stopOrderType: order.labels.stopOrderType ?? '',
    orderIv: '',
    marketUnit: '',
    triggerPrice: num(order.triggerPrice),
    takeProfit: num(order.takeProfit),
    stopLoss: num(order.stopLoss),
    tpslMode: order.kind === 'normal' && !order.takeProfit && !order.stopLoss ? '' : order.tpslMode,
    ocoTriggerBy: '',
    tpLimitPrice: '0',
    slLimitPrice: '0',
    tpTriggerBy: order.takeProfit ? (order.labels.tpTriggerBy ?? 'LastPrice') : '',
    slTriggerBy: order.stopLoss ? (order.labels.slTriggerBy ?? 'LastPrice') : '',
    triggerDirection: order.triggerDirection,
    triggerBy: order.triggerPrice ? triggerByText(order.triggerOn) : '',
    lastPriceOnCreated: '',
    reduceOnly: order.reduceOnly,
    closeOnTrigger: order.closeOnTrigger,
    createType: createTypeOf(order),
    placeType: '',
    smpType: 'None',
    smpGroup: 0,
    smpOrderId: '',
    createdTime: String(order.createdAt),
    updatedTime: String(order.updatedAt),
  };
}

/** One position row: `liqPrice`/`bustPrice` as liquidation.ts computes them ("" when flat or never), the mark price, the risk tier of its value. */
export function positionView(sandbox: Sandbox, account: Account, position: Position): Record<string, unknown> {
  const mark = sandbox.prices.mark(position.symbol);
  const leverage = leverageOf(account, position.symbol, position.idx, position.side);
  const im = positionMargin(account, position);
  const value = position.size * position.entryPrice;
  const tier = tierFor('bybit', position.symbol, value);
  const prices = liquidationPrices(account, position, (symbol) => sandbox.prices.mark(symbol));
  const marginMode = account.marginModes.get(position.symbol) ?? account.defaultMarginMode;
  return {
    positionIdx: position.idx,
    riskId: tier.level,
    riskLimitValue: num(tier.maxValue),
    symbol: position.symbol,
    side: position.side === 'long' ? 'Buy' : position.side === 'short' ? 'Sell' : '',
    size: num(position.size),
    avgPrice: num(position.entryPrice),
    positionValue: num(position.size * position.entryPrice),
    tradeMode: marginMode === 'isolated' ? 1 : 0,
    positionStatus: 'Normal',
    autoAddMargin: 0,
    adlRankIndicator: position.side ? 2 : 0,
    leverage: num(leverage),
    positionBalance: num(im),
    markPrice: num(mark),
    liqPrice: prices && prices.liq > 0 ? num(prices.liq) : '',
    bustPrice: prices && prices.bust > 0 ? num(prices.bust) : '',
    positionMM: num(position.side ? maintenanceMargin('bybit', position.symbol, value) : 0),
    positionIM: num(im),
    tpslMode: 'Full',
    takeProfit: num(position.takeProfit),
    stopLoss: num(position.stopLoss),
    trailingStop: num(position.trailing?.distance ?? 0),
    activePrice: num(position.trailing?.activation ?? 0),
    unrealisedPnl: num(unrealisedOf(position, mark)),
    curRealisedPnl: num(position.realisedPnl),
    cumRealisedPnl: num(position.cumRealisedPnl),
    seq: position.seq,
    isReduceOnly: false,
    createdTime: String(position.createdAt),
    updatedTime: String(position.updatedAt),
  };
}

export function walletView(sandbox: Sandbox, account: Account): Record<string, unknown> {
  const summary = marginSummary(account, (symbol) => sandbox.prices.mark(symbol));
  let cumRealisedPnl = 0;
  for (const position of account.positions.values()) cumRealisedPnl += position.cumRealisedPnl;
  const coin = {
    coin: 'USDT',
    equity: num(summary.equity),
    usdValue: num(summary.equity),
    walletBalance: num(summary.wallet),
    free: '',
    locked: '0',
    spotHedgingQty: '0',
    borrowAmount: '0',
    availableToWithdraw: '',
    availableToBorrow: '',
    accruedInterest: '0',
    totalOrderIM: num(summary.orderIM),
    totalPositionIM: num(summary.positionIM),
    totalPositionMM: '0',
    unrealisedPnl: num(summary.unrealised),
    cumRealisedPnl: num(cumRealisedPnl),
    bonus: '0',
    marginCollateral: true,
    collateralSwitch: true,
  };
  return {
    accountType: 'UNIFIED',
    accountIMRate: '0',
    accountMMRate: '0',
    totalEquity: num(summary.equity),
    totalWalletBalance: num(summary.wallet),
    totalMarginBalance: num(summary.equity),
    totalAvailableBalance: num(summary.available),
    totalPerpUPL: num(summary.unrealised),
    totalInitialMargin: num(summary.positionIM + summary.orderIM),
    totalMaintenanceMargin: '0',
    coin: [coin],
  };
}
