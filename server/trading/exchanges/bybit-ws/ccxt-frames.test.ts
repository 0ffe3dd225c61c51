import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { servedBySocket, socketRefusal } from './ccxt-frames';

const ex = new ccxt.bybit({ exceptions: { exact: { '110072': ccxt.DuplicateOrderId } } });
const frame = (retCode: number, retMsg: string) => ({ retCode, retMsg, op: 'order.create' });

describe('ccxt frames of the Bybit order-entry socket', () => {
  it('sends to the socket only what ccxt would POST to /v5/order/create', () => {
    const spec = (params: Record<string, unknown>) => ({ type: 'market' as const, side: 'sell' as const, amount: 1, params });
    expect(servedBySocket(spec({ stopLossPrice: 1, reduceOnly: true }))).toBe(true);
    expect(servedBySocket(spec({ stopLoss: { triggerPrice: 1 }, takeProfit: { triggerPrice: 2 } }))).toBe(true);
    expect(servedBySocket(spec({ stopLossPrice: 1, takeProfitPrice: 2 }))).toBe(false);
    expect(servedBySocket(spec({ trailingAmount: '5' }))).toBe(false);
    expect(servedBySocket(spec({ tradingStopEndpoint: true }))).toBe(false);
  });

  it('classes refusals as the same code over REST would be', () => {
    expect(socketRefusal(ex, frame(10006, 'Too many visits!'))).toMatchObject({ code: 'rate_limit', retryable: true, exchangeCode: '10006' });
    expect(socketRefusal(ex, frame(110072, 'OrderLinkedID is duplicate'))).toMatchObject({ code: 'duplicate', retryable: false, exchangeCode: '110072' });
    expect(socketRefusal(ex, frame(110007, 'ab not enough for new order'))).toMatchObject({ code: 'insufficient_balance', exchangeCode: '110007' });
    expect(socketRefusal(ex, frame(10001, 'StopLoss:61000 set for Buy position should lower than base_price:60000??LastPrice'))).toMatchObject({ code: 'level_passed' });
    expect(socketRefusal(ex, frame(10005, 'Permission denied, please check your API key permissions.'))).toMatchObject({ code: 'permission', retryable: false });
  });
});
