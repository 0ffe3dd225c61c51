import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bitgetRaw, bybitClient, bybitRaw } from './test-support';

/** D12: fees on every fill and funding at its interval, answered by the exchanges' own record endpoints with their paging. */
const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  ahead = 0;
  sandbox.control.reset();
});

type Rows = Array<Record<string, unknown>>;

describe('Bybit execution/list and closed-pnl', () => {
  it('books execFee on every trade and funding (execType Funding) at the rate set; closed-pnl nets open and close fees', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.1, undefined, { clientOrderId: 'btc-long' });
    await ex.createOrder('ETH/USDT:USDT', 'market', 'sell', 1);
    expect(sandbox.control.setFunding({ symbol: 'BTCUSDT', rate: 0.0005 }).rates).toMatchObject({ BTCUSDT: 0.0005, ETHUSDT: 0.0001 });
    expect(sandbox.control.settleFunding()).toBe(2);
    const funding = await ex.fetchFundingHistory(S);
    expect(funding.map((entry) => entry.amount)).toEqual([3]);
    expect(funding[0]?.info).toMatchObject({ execType: 'Funding', feeRate: '0.0005', orderType: 'UNKNOWN', stopOrderType: 'UNKNOWN', execQty: '0.1', execPrice: '60000', side: 'Buy' });
    expect((await ex.fetchFundingHistory('ETH/USDT:USDT'))[0]).toMatchObject({ amount: -0.3, info: { feeRate: '0.0001', side: 'Sell' } });

    sandbox.control.setPrice('BTCUSDT', 61_000);
    await ex.createOrder(S, 'market', 'sell', 0.1, undefined, { reduceOnly: true, clientOrderId: 'btc-close' });
    const trades = await ex.fetchMyTrades(S);
    expect(trades.map((trade) => [trade.info.orderLinkId, trade.price, trade.fee?.cost, trade.info.execType])).toEqual([
      ['btc-long', 60_000, 3.3, 'Trade'],
      ['btc-close', 61_000, 3.355, 'Trade'],
    ]);
    const closed = (await ex.privateGetV5PositionClosedPnl({ category: 'linear' })) as { result: { list: Rows; nextPageCursor: string } };
    expect(closed.result).toMatchObject({ nextPageCursor: '', list: [{ symbol: 'BTCUSDT', side: 'Sell', closedSize: '0.1', avgEntryPrice: '60000', avgExitPrice: '61000', openFee: '3.3', closeFee: '3.355', closedPnl: '93.345', execType: 'Trade', fillCount: '1', leverage: '10' }] });
    expect(sandbox.control.account(creds.uid).balances.USDT).toBeCloseTo(10_000 - 3.3 - 1.65 - 3 + 0.3 + 100 - 3.355, 6);
  });

  it('pages newest first by nextPageCursor, and books funding by itself when its interval ends on the exchange clock', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'a' });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'b' });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'c' });
    const { nextAt } = sandbox.control.funding();
    ahead = nextAt - Date.now() + 1_000; // the exchange's clock passes the next 8-hour boundary
    const list = async (query: Record<string, unknown>) =>
      ((await (await bybitRaw(sandbox.url, creds, 'GET', '/v5/execution/list', { category: 'linear', ...query }, { timestamp: sandbox.control.clock().now })).json()) as { result: { list: Rows; nextPageCursor: string } }).result;
    const first = await list({ limit: 2 });
    expect(first.list.map((row) => [row.execType, row.orderLinkId])).toEqual([['Funding', ''], ['Trade', 'c']]);
    expect(first.list[0]).toMatchObject({ execTime: String(nextAt), execFee: '0.18', feeRate: '0.0001', execQty: '0.03' });
    const second = await list({ limit: 2, cursor: first.nextPageCursor });
    expect(second.list.map((row) => row.orderLinkId)).toEqual(['b', 'a']);
    expect(second.nextPageCursor).toBe('');
    expect((await list({ execType: 'Funding' })).list).toHaveLength(1);
    const tooWide = await bybitRaw(sandbox.url, creds, 'GET', '/v5/execution/list', { category: 'linear', startTime: 1, endTime: 8 * 86_400_000 }, { timestamp: sandbox.control.clock().now });
    expect(tooWide.json()).toMatchObject({ retCode: 10001 });
  });
});

describe('Bitget order fills and account bill', () => {
  it('fills carry feeDetail and profit; bills book each trade (buy/sell), funding (contract_settle_fee) and the balance after; paged by idLessThan', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.1);
    sandbox.control.setFunding({ rate: 0.0005 });
    sandbox.control.settleFunding();
    expect((await ex.fetchFundingHistory(S)).map((entry) => entry.amount)).toEqual([-3]);
    sandbox.control.setPrice('BTCUSDT', 61_000);
    await ex.createOrder(S, 'market', 'sell', 0.1, undefined, { reduceOnly: true });
    const trades = await ex.fetchMyTrades(S);
    expect(trades.map((trade) => [trade.side, trade.price, trade.fee?.cost, trade.takerOrMaker])).toEqual([
      ['buy', 60_000, 3.6, 'taker'],
      ['sell', 61_000, 3.66, 'taker'],
    ]);
    expect(trades[1]?.info).toMatchObject({ profit: '100', tradeSide: 'sell_single', posMode: 'one_way_mode', feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalFee: '-3.66' }] });
    const bill = async (query: Record<string, unknown>) =>
      ((await (await bitgetRaw(sandbox.url, creds, 'GET', '/api/v2/mix/account/bill', { productType: 'USDT-FUTURES', ...query })).json()) as { data: { bills: Rows; endId: string | null } }).data;
    const all = await bill({});
    expect(all.bills.map((row) => [row.businessType, row.amount, row.fee, row.balance])).toEqual([
      ['sell', '100', '-3.66', '10089.74'],
      ['contract_settle_fee', '-3', '0', '9993.4'],
      ['buy', '0', '-3.6', '9996.4'],
    ]);
    const first = await bill({ limit: 1 });
    const second = await bill({ limit: 1, idLessThan: first.endId });
    expect([first.bills[0]?.businessType, second.bills[0]?.businessType]).toEqual(['sell', 'contract_settle_fee']);
    expect((await bill({ businessType: 'contract_settle_fee' })).bills).toHaveLength(1);
  });
});
