import { describe, expect, it } from 'vitest';
import type { CustomerResults } from '../../contract/api/results';
import { AccountType, AmountType, CustomerGroup, EntryDirection } from '../../contract/enums';
import { closeOrder } from '../../server/trading/intake';
import { personWithToken } from '../helpers/fixtures';
import { engineSuite, executionsOf, insertStrategy, openPositions, startEngine, stopLossOf, tradingCustomer, waitFor, staffOf } from './fixtures';

/**
 * A customer's results (issue 29) against the sandbox: the open position with the stop and take-profits the
 * exchange holds, then, once closed, the day's realized PnL (net) with its running total and the wallet it implies.
 */
describe("a customer's results: open positions with their protection, realized PnL per day", () => {
  const suite = engineSuite(startEngine);
  const staff = staffOf(suite);


  const results = async (customerId: number, token = staff.employee.token): Promise<CustomerResults> => {
    const answer = await suite.ctx.api('GET', `/api/customer/${customerId}/results`, { token });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  it('shows the open position with the stop and take-profits on the exchange, then the closed day', async () => {
    const customer = await tradingCustomer(suite.ctx, suite.sandbox, { exchange: 'bybit', group: CustomerGroup.Internal });
    const strategy = await insertStrategy(suite.ctx, {
      tp: [{ target: 1, volume: 50 }, { target: 2, volume: 50 }],
      stopLoss: { type: AmountType.Percent, amount: 2 },
      groups: [{ group: CustomerGroup.Internal, investType: AmountType.Quantity, amount: 0.01 }],
    });
    const { orderId } = await openPositions(suite.ctx, strategy.url);
    const account = suite.sandbox.control.account(customer.sandbox!.uid);
    const takeProfits = account.orders.filter((o) => /-tp\d/.test(o.clientOrderId) && ['new', 'untriggered'].includes(o.status)).map((o) => o.triggerPrice || o.price).sort();

    const open = await results(customer.customerId);
    expect(open.days).toEqual([]);
    expect(open.openPositions).toEqual([
      expect.objectContaining({ orderId, strategyId: strategy.id, symbol: 'BTCUSDT', side: EntryDirection.Long, quantity: 0.01, entryPrice: 60000, stopLoss: stopLossOf(account), takeProfits }),
    ]);
    expect(takeProfits).toHaveLength(2);

    suite.sandbox.control.setPrice('BTCUSDT', 60100);
    await closeOrder(suite.ctx.deps, { orderId, actorAccountId: staff.admin.accountId });
    const [row] = await waitFor('closed', async () => {
      const rows = await executionsOf(suite.ctx, orderId);
      return rows[0]?.state === 'closed' ? rows : undefined;
    });
    suite.sandbox.control.setPrice('BTCUSDT', 60000);
    const closed = await results(customer.customerId);
    expect(closed.openPositions).toEqual([]);
    const pnl = Number(Number(row!.realized_pnl).toFixed(2));
    expect(closed.days).toEqual([{ day: new Date().toISOString().slice(0, 10), realizedPnl: pnl, cumulative: pnl, wallet: expect.any(Number) }]);
  });

  it('a customer reads their own results and no one else’s; unknown customers are 404', async () => {
    const own = await personWithToken(suite.ctx, AccountType.Customer);
    const other = await personWithToken(suite.ctx, AccountType.Customer);
    expect(await results(own.roleId, own.token)).toEqual({ days: [], openPositions: [] });
    expect((await suite.ctx.api('GET', `/api/customer/${other.roleId}/results`, { token: own.token })).status).toBe(404);
    expect((await suite.ctx.api('GET', '/api/customer/99999999/results', { token: staff.employee.token })).status).toBe(404);
  });
});
