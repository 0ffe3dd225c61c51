import type { bybit as BybitExchange } from 'ccxt';
import type { OrderSpec } from '../ccxt-adapter';
import { toExchangeFailure } from '../errors';
import type { ExchangeFailure, MarketInfo } from '../types';
import type { TradeFrame } from './trade-socket';

/** Whether ccxt would POST the order to /v5/order/create (the socket's `order.create`), not to /v5/position/trading-stop. */
export function servedBySocket(order: OrderSpec): boolean {
  const { params } = order;
  const tradingStop =
    params.trailingAmount !== undefined || params.trailingStop !== undefined || params.tradingStopEndpoint === true || (params.stopLossPrice !== undefined && params.takeProfitPrice !== undefined);
  return !tradingStop;
}

/** The body ccxt would POST to /v5/order/create, built as ccxt pro's createOrderWs builds its `args[0]` (UTA). */
export function socketOrderBody(ex: BybitExchange, market: MarketInfo, order: OrderSpec): Record<string, unknown> {
  return ex.createOrderRequest(market.ccxtSymbol, order.type, order.side, order.amount, order.price, order.params, true) as Record<string, unknown>;
}

/** A /v5/trade refusal as the ExchangeFailure a REST answer with the same code gives (ccxt's handleErrors decides the class). */
export function socketRefusal(ex: BybitExchange, frame: TradeFrame): ExchangeFailure {
  const body = JSON.stringify({ retCode: frame.retCode, retMsg: frame.retMsg });
  try {
    ex.handleErrors(200, 'OK', 'wss /v5/trade order.create', 'POST', {}, body, { retCode: frame.retCode, retMsg: frame.retMsg }, {}, undefined);
  } catch (error) {
    return toExchangeFailure('bybit', error);
  }
  return toExchangeFailure('bybit', new Error(`bybit ${body}`));
}
