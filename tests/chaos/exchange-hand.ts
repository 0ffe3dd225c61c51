import type { OrderState, PositionState } from '../../server/sandbox/control';
import type { RunningSandbox } from '../../server/sandbox/index';
import { bitgetRaw, bybitRaw, type RawAnswer } from '../../server/sandbox/test-support';
import type { ChaosCustomer } from './world';

/**
 * What a customer does by hand on the exchange, through the exchanges' own signed API (never the
 * sandbox's control plane): closing part or all of a position, cancelling a stop.
 */
let manualCount = 0;

const bitgetBase = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };

export function closeByHand(sandbox: RunningSandbox, customer: ChaosCustomer, position: PositionState, qty: number): Promise<RawAnswer> {
  manualCount += 1;
  const creds = customer.trading.sandbox!;
  const clientId = `byhand-${Date.now().toString(36)}-${manualCount}`;
  if (customer.exchange === 'bybit') {
    return bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', {
      category: 'linear',
      symbol: position.symbol,
      side: position.side === 'long' ? 'Sell' : 'Buy',
      orderType: 'Market',
      qty: String(qty),
      reduceOnly: true,
      positionIdx: position.positionIdx,
      orderLinkId: clientId,
    });
  }
  const hedge = position.positionIdx !== 0;
  return bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-order', {
    symbol: position.symbol,
    ...bitgetBase,
    marginMode: 'crossed',
    size: String(qty),
    orderType: 'market',
    clientOid: clientId,
    ...(hedge ? { side: position.side === 'long' ? 'buy' : 'sell', tradeSide: 'close' } : { side: position.side === 'long' ? 'sell' : 'buy', reduceOnly: 'YES' }),
  });
}

export function cancelByHand(sandbox: RunningSandbox, customer: ChaosCustomer, order: OrderState): Promise<RawAnswer> {
  const creds = customer.trading.sandbox!;
  if (customer.exchange === 'bybit') return bybitRaw(sandbox.url, creds, 'POST', '/v5/order/cancel', { category: 'linear', symbol: order.symbol, orderId: order.id });
  return bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/cancel-plan-order', {
    symbol: order.symbol,
    ...bitgetBase,
    orderIdList: [{ orderId: order.id }],
    planType: order.labels.planType ?? 'loss_plan',
  });
}
