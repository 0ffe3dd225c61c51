import type { PlaceRequest } from './types';
import type { PriceKind } from './prices';
import type { Account, ExchangeId, Order, Position, Side } from './types';
import { isOpen } from './types';

/** Bybit tpTriggerBy/slTriggerBy of an entry (kept in its labels), LastPrice by default; Bitget presets watch the last price. */
function triggerOnOf(order: Order, leg: 'tp' | 'sl'): PriceKind {
  const by = order.labels[leg === 'tp' ? 'tpTriggerBy' : 'slTriggerBy'];
  return by === 'MarkPrice' ? 'mark' : by === 'IndexPrice' ? 'index' : 'last';
}

function presetLabels(exchange: ExchangeId, leg: 'tp' | 'sl'): Record<string, string> {
  if (exchange === 'bybit') return { tpsl: leg, stopOrderType: leg === 'tp' ? 'PartialTakeProfit' : 'PartialStopLoss' };
  return { tpsl: leg, planType: leg === 'tp' ? 'pos_profit' : 'pos_loss' };
}

/**
 * What the TP/SL carried by an entry does to its position: Bybit Full mode sets the position's own TP/SL
 * (done here), Bybit Partial mode adds sized legs; Bitget presets become the position's pos_profit/pos_loss,
 * replacing the ones it had. Answers the orders to cancel and the legs to place.
 */
export function presetPlan(account: Account, order: Order, position: Position): { replaced: Order[]; legs: PlaceRequest[] } {
  if (order.tpslMode === 'Full' && account.exchange === 'bybit') {
    if (order.takeProfit) Object.assign(position, { takeProfit: order.takeProfit, tpTriggerOn: triggerOnOf(order, 'tp') });
    if (order.stopLoss) Object.assign(position, { stopLoss: order.stopLoss, slTriggerOn: triggerOnOf(order, 'sl') });
    return { replaced: [], legs: [] };
  }
  const exitSide: Side = position.side === 'long' ? 'sell' : 'buy';
  const chosen: Array<['tp' | 'sl', number]> = [];
  if (order.takeProfit) chosen.push(['tp', order.takeProfit]);
  if (order.stopLoss) chosen.push(['sl', order.stopLoss]);
  const replaced: Order[] = [];
  const legs = chosen.map(([leg, trigger]): PlaceRequest => {
    const labels = presetLabels(account.exchange, leg);
    if (account.exchange === 'bitget') {
      replaced.push(...account.orders.filter((old) => isOpen(old) && old.symbol === order.symbol && old.positionIdx === order.positionIdx && old.labels.planType === labels.planType));
    }
    return {
      symbol: order.symbol,
      side: exitSide,
      type: 'market',
      qty: order.filledQty,
      price: 0,
      reduceOnly: true,
      positionIdx: order.positionIdx,
      clientId: '',
      kind: 'tpsl',
      wholePosition: order.tpslMode === 'Full',
      triggerPrice: trigger,
      triggerOn: triggerOnOf(order, leg),
      tpslMode: order.tpslMode,
      labels,
    };
  });
  return { replaced, legs };
}
