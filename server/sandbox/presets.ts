import type { PlaceRequest } from './engine';
import type { Account, ExchangeId, Order, Position, Side } from './types';
import { isOpen } from './types';

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
    if (order.takeProfit) position.takeProfit = order.takeProfit;
    if (order.stopLoss) position.stopLoss = order.stopLoss;
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
      tpslMode: order.tpslMode,
      labels,
    };
  });
  return { replaced, legs };
}
