import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient } from './test-support';

/**
 * D7: every position has a liquidation price (isolated: its own margin, cross: the account's), the mark price
 * reaching it liquidates the position: its orders are cancelled, it is taken over at the bankruptcy price and the
 * fill is booked as a liquidation. A stop beyond the liquidation price is accepted (no exchange documents a refusal).
 */
const S = 'BTC/USDT:USDT';
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());

describe('Bybit liquidation', () => {
  it('isolated long 0.1 BTC at 10x: liqPrice 54300, bustPrice 54000; the mark reaching it cancels its orders and books a BustTrade', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000, marginMode: 'isolated' });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.1);
    // A stop below the liquidation price and a take-profit leg: both accepted.
    await ex.privatePostV5PositionTradingStop({ category: 'linear', symbol: 'BTCUSDT', positionIdx: 0, tpslMode: 'Full', stopLoss: '54000' });
    await ex.createOrder(S, 'market', 'sell', 0.05, undefined, { takeProfitPrice: 65_000, reduceOnly: true, clientOrderId: 'tp-leg' });
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ liqPrice: '54300', bustPrice: '54000', positionMM: '30', positionIM: '600', tradeMode: 1, stopLoss: '54000' });

    sandbox.control.setQuote('BTCUSDT', { mark: 54_300.1 });
    expect(sandbox.control.account(creds.uid).positions).toHaveLength(1);
    sandbox.control.setQuote('BTCUSDT', { mark: 54_300 }); // the last price stays at 60,000: liquidation watches the mark
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);

    const history = await ex.fetchCanceledAndClosedOrders(S);
    const takeover = history.find((order) => order.info.createType === 'CreateByTakeOver_PassThrough');
    expect(takeover?.info).toMatchObject({ orderStatus: 'Filled', side: 'Sell', qty: '0.1', avgPrice: '54000', reduceOnly: true });
    expect(history.find((order) => order.clientOrderId === 'tp-leg')?.info).toMatchObject({ orderStatus: 'Cancelled', cancelType: 'CancelAllBeforeLiq' });
    const executions = (await ex.privateGetV5ExecutionList({ category: 'linear', symbol: 'BTCUSDT' })) as { result: { list: Array<Record<string, unknown>> } };
    expect(executions.result.list[0]).toMatchObject({ execType: 'BustTrade', execPrice: '54000', execQty: '0.1', execFee: '0', closedSize: '0.1', markPrice: '54300' });
    const closed = (await ex.privateGetV5PositionClosedPnl({ category: 'linear', symbol: 'BTCUSDT' })) as { result: { list: Array<Record<string, unknown>> } };
    expect(closed.result.list[0]).toMatchObject({ execType: 'BustTrade', closedSize: '0.1', avgEntryPrice: '60000', avgExitPrice: '54000', openFee: '3.3', closeFee: '0', closedPnl: '-603.3' });
    expect(sandbox.control.account(creds.uid).balances.USDT).toBeCloseTo(10_000 - 3.3 - 600, 6);
  });

  it('cross margin: the wallet backs the position, so the liquidation price is lower; the takeover leaves the wallet at zero', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.1);
    // wallet 996.7 after the fee, maintenance margin 30: 60000 - 966.7 / 0.1
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ liqPrice: '50333', bustPrice: '50033', tradeMode: 0 });
    sandbox.control.setPrice('BTCUSDT', 50_333.1);
    expect(sandbox.control.account(creds.uid).positions).toHaveLength(1);
    sandbox.control.setPrice('BTCUSDT', 50_300);
    expect(sandbox.control.account(creds.uid)).toMatchObject({ positions: [], balances: { USDT: expect.closeTo(0, 6) } });
  });
});

describe('Bitget liquidation', () => {
  it('isolated long: liquidationPrice from the tier keepMarginRate; the mark reaching it cancels the plans and books a liquidation order and bill', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000, marginMode: 'isolated' });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.1, undefined, { marginMode: 'isolated' });
    await ex.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, planType: 'pos_loss', triggerPrice: '53000', triggerType: 'mark_price', holdSide: 'buy', clientOid: 'deep-stop' });
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ liquidationPrice: '54240', keepMarginRate: '0.004', marginMode: 'isolated', marginSize: '600' });

    sandbox.control.setQuote('BTCUSDT', { mark: 54_240 });
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);
    const history = (await ex.privateMixGetV2MixOrderOrdersHistory({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' })) as { data: { entrustedList: Array<Record<string, unknown>> } };
    expect(history.data.entrustedList[0]).toMatchObject({ orderSource: 'liquidation', state: 'filled', side: 'sell', baseVolume: '0.1', priceAvg: '54000' });
    const plans = (await ex.privateMixGetV2MixOrderOrdersPlanHistory({ productType: 'USDT-FUTURES', planType: 'profit_loss' })) as { data: { entrustedList: Array<Record<string, unknown>> } };
    expect(plans.data.entrustedList.find((plan) => plan.clientOid === 'deep-stop')).toMatchObject({ planStatus: 'cancelled' });
    const bills = (await ex.privateMixGetV2MixAccountBill({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' })) as { data: { bills: Array<Record<string, unknown>> } };
    expect(bills.data.bills[0]).toMatchObject({ businessType: 'burst_sell', amount: '-600', fee: '0', balance: '9396.4' });
  });
});
