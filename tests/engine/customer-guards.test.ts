import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomerGuards } from '../../contract/api/guards';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { CUSTOMER_GUARD_SKIP_PREFIX } from '../../server/trading/guards';
import { personWithToken, type Person } from '../helpers/fixtures';
import {
  auditsOf,
  engineSuite,
  exchangeOrdersOf,
  exchangePositionOf,
  executionsOf,
  goldPair,
  goldStrategy,
  insertStrategy,
  openPositions,
  startEngine,
  type TradingCustomer,
} from './fixtures';

/**
 * A customer's guards (issue 29) against the sandbox: an entry that would break one is skipped for that
 * customer alone, audited with the reason, and nothing reaches their exchange; the others trade. The
 * gold strategy buys 0.01 BTC at about 60,000 (600 USDT) at 10x; accounts hold 100,000 USDT.
 */
describe("customer guards: each entry checked against the customer's limits before it is sent", () => {
  const suite = engineSuite(startEngine);
  let admin: Person & { token: string };

  beforeAll(async () => {
    admin = await personWithToken(suite.ctx, AccountType.Admin);
  });

  const NONE: CustomerGuards = { maxNotionalUsdt: null, maxLeverage: null, maxOpenPositions: null, minFreeBalanceUsdt: null, dailyLossLimitUsdt: null, maxDrawdownPct: null, lossGuardResume: 'staff' };
  async function guard(customer: TradingCustomer, guards: Partial<CustomerGuards>) {
    const answer = await suite.ctx.api('PUT', `/api/customer/${customer.customerId}/guards`, { token: admin.token, body: { ...NONE, ...guards } });
    expect(answer.status).toBe(200);
  }
  /** Sends the entry alert and waits until every execution of it has settled. */
  const enter = (url: string, alertId: string) => openPositions(suite.ctx, url, JSON.stringify({ action: 'open', alert_id: alertId }));
  const stateOf = async (orderId: number, customer: TradingCustomer) => (await executionsOf(suite.ctx, orderId)).find((row) => row.customer_id === customer.customerId)?.state;
  /** The customer's execution of the order was skipped by a guard (its audit text answered), and nothing of it reached their exchange. */
  async function skippedFor(orderId: number, customer: TradingCustomer, symbol = 'BTCUSDT'): Promise<string> {
    expect(await stateOf(orderId, customer)).toBe('skipped');
    const audit = (await auditsOf(suite.ctx, 'entry_audits', orderId)).find((row) => row.customer_id === customer.customerId);
    expect(audit?.message.startsWith(CUSTOMER_GUARD_SKIP_PREFIX)).toBe(true);
    expect(exchangeOrdersOf(suite.sandbox, customer).filter((order) => order.symbol === symbol)).toEqual([]);
    expect(exchangePositionOf(suite.sandbox, customer, symbol)).toBeUndefined();
    return audit!.message;
  }
  const holds = (customer: TradingCustomer, size: number, symbol = 'BTCUSDT') => expect(exchangePositionOf(suite.sandbox, customer, symbol)?.size).toBe(size);

  it('maximum leverage: a 10x strategy skips the customer allowing 5x; the other trades', async () => {
    const [bybit, bitget] = await goldPair(suite.ctx, suite.sandbox);
    await guard(bybit!, { maxLeverage: 5 });
    const strategy = await goldStrategy(suite.ctx);
    const { orderId } = await enter(strategy.url, 'lev-1');
    expect(await skippedFor(orderId, bybit!)).toBe(`${CUSTOMER_GUARD_SKIP_PREFIX} allows at most 5x leverage; strategy ${strategy.id} trades at 10x`);
    expect(await stateOf(orderId, bitget!)).toBe('open');
    holds(bitget!, 0.01);
  });

  it('maximum notional: 600 USDT over a 500 limit is skipped on both exchanges; at 1,000 both trade', async () => {
    const customers = await goldPair(suite.ctx, suite.sandbox);
    for (const customer of customers) await guard(customer, { maxNotionalUsdt: 500 });
    const strategy = await goldStrategy(suite.ctx);
    const over = await enter(strategy.url, 'notional-1');
    for (const customer of customers) expect(await skippedFor(over.orderId, customer)).toMatch(/^Entry skipped: this customer's guard limits one entry to 500 USDT; this one is worth 6\d\d USDT \(0\.01 BTCUSDT at /);

    for (const customer of customers) await guard(customer, { maxNotionalUsdt: 1_000 });
    const within = await enter(strategy.url, 'notional-2');
    expect(within.rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) holds(customer, 0.01);
  });

  it('maximum open positions: with one open, another symbol is skipped; the same symbol and side adds to it', async () => {
    const customers = await goldPair(suite.ctx, suite.sandbox);
    for (const customer of customers) await guard(customer, { maxOpenPositions: 1 });
    const btc = await goldStrategy(suite.ctx);
    expect((await enter(btc.url, 'positions-1')).rows.map((row) => row.state)).toEqual(['open', 'open']);

    const eth = await insertStrategy(suite.ctx, { symbol: 'ETHUSDT', tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.1 }] });
    const other = await enter(eth.url, 'positions-2');
    for (const customer of customers) {
      expect(await skippedFor(other.orderId, customer, 'ETHUSDT')).toBe(`${CUSTOMER_GUARD_SKIP_PREFIX} allows at most 1 open positions; 1 are open`);
    }

    const again = await enter(btc.url, 'positions-3');
    expect(again.rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) holds(customer, 0.02);
  });

  it('minimum free balance: read from the exchange at entry; above what the account has free, skipped; below, traded', async () => {
    const customers = await goldPair(suite.ctx, suite.sandbox);
    for (const customer of customers) await guard(customer, { minFreeBalanceUsdt: 150_000 });
    const strategy = await goldStrategy(suite.ctx);
    const short = await enter(strategy.url, 'balance-1');
    for (const customer of customers) expect(await skippedFor(short.orderId, customer)).toBe(`${CUSTOMER_GUARD_SKIP_PREFIX} keeps at least 150000 USDT free; the account has 100000 USDT free`);

    for (const customer of customers) await guard(customer, { minFreeBalanceUsdt: 50_000 });
    const enough = await enter(strategy.url, 'balance-2');
    expect(enough.rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) holds(customer, 0.01);
  });
});
