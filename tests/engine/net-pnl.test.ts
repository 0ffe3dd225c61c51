import type { bitget as Bitget, bybit as Bybit } from 'ccxt';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { bitgetClient, bybitClient } from '../../server/sandbox/test-support';
import { closeOrder } from '../../server/trading/intake';
import { auditsOf, engineSuite, executionsOf, goldPair, insertStrategy, openPositions, startEngine, syncNow, waitFor, type TradingCustomer } from './fixtures';

type Row = Record<string, string>;
const sum = (rows: Row[], pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);

/**
 * What the account's own records say the position made, net, read the way a customer's accountant would and not
 * the way the engine reads them: Bybit's closed-PnL rows (net of open and close fees) less its funding executions;
 * Bitget's fills (profit plus the negative fees) plus its funding bills.
 */
async function netFromRecords(sandbox: RunningSandbox, customer: TradingCustomer): Promise<{ net: number; funding: number }> {
  if (customer.exchange === 'bybit') {
    const bybit = bybitClient(sandbox.url, customer.sandbox!) as Bybit;
    const closed = ((await bybit.privateGetV5PositionClosedPnl({ category: 'linear', symbol: 'BTCUSDT' })) as { result: { list: Row[] } }).result.list;
    const funding = ((await bybit.privateGetV5ExecutionList({ category: 'linear', symbol: 'BTCUSDT', execType: 'Funding' })) as { result: { list: Row[] } }).result.list;
    const paid = sum(funding, (row) => Number(row.execFee));
    return { net: sum(closed, (row) => Number(row.closedPnl)) - paid, funding: paid };
  }
  const bitget = bitgetClient(sandbox.url, customer.sandbox!) as Bitget;
  const fills = ((await bitget.privateMixGetV2MixOrderFills({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' })) as { data: { fillList: Array<Row & { feeDetail: Row[] }> } }).data.fillList;
  const bills = ((await bitget.privateMixGetV2MixAccountBill({ productType: 'USDT-FUTURES', businessType: 'contract_settle_fee' })) as { data: { bills: Row[] } }).data.bills;
  const fees = fills.reduce((total, fill) => total + sum(fill.feeDetail, (fee) => Number(fee.totalFee)), 0);
  const received = sum(bills, (bill) => Number(bill.amount));
  return { net: sum(fills, (fill) => Number(fill.profit)) + fees + received, funding: -received };
}

/**
 * LIVE-FIDELITY D12: the realized PnL booked for a position is net of every fee its trades paid (entry, a
 * take-profit leg, the close) and of the funding it paid while open, as the exchange's own records show them.
 */
describe('realized PnL net of fees and funding (D12)', () => {
  const suite = engineSuite(startEngine);

  it('a position with a funding settlement, a take-profit and a close by admin books what the exchange records, not the gross', async () => {
    const { ctx, sandbox, dispatcher } = suite;
    const customers = await goldPair(ctx, sandbox);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 50 }, { target: 5, volume: 50 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.02 }] });
    const { orderId } = await openPositions(ctx, strategy.url);

    sandbox.control.setFunding({ symbol: 'BTCUSDT', rate: 0.001 });
    expect(sandbox.control.settleFunding()).toBeGreaterThanOrEqual(2);
    sandbox.control.setPrice('BTCUSDT', 60600);
    await syncNow(ctx, dispatcher);
    await waitFor('TP1 booked', async () => (await executionsOf(ctx, orderId)).every((row) => row.legs.some((leg) => leg.kind === 'tp1' && leg.status === 'filled')));
    const admin = (await ctx.deps.db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows[0]!.id;
    await closeOrder(ctx.deps, { orderId, actorAccountId: admin });
    const rows = await waitFor('both closed', async () => {
      const found = await executionsOf(ctx, orderId);
      return found.every((row) => row.state === 'closed') ? found : undefined;
    });

    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    for (const [index, customer] of customers.entries()) {
      const { net, funding } = await netFromRecords(sandbox, customer);
      // 0.01 BTC taken at 60600 and 0.01 closed at 60600 from 60000: 12 USDT gross, less fees and 1.2 USDT of funding.
      expect(funding).toBeCloseTo(0.02 * 60000 * 0.001, 6);
      expect(net).toBeLessThan(12 - funding);
      expect(Number(rows[index]!.realized_pnl)).toBeCloseTo(net, 6);
      const last = audits.filter((audit) => audit.customer_id === customer.customerId).at(-1)!.message;
      expect(last).toMatch(new RegExp(`; realized PnL ${net.toFixed(2)} USDT after fees \\d+\\.\\d\\d and funding ${funding.toFixed(2)} USDT$`));
    }
    sandbox.control.setPrice('BTCUSDT', 60000);
  });
});
