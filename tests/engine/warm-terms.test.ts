import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, Exchange, PositionMode } from '../../contract/enums';
import { exchangeAccountSettings } from '../../server/db/schema/index';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createExchangeAdapters } from '../../server/trading/exchanges/index';
import { ExchangeRateLimiter } from '../../server/trading/exchanges/rate-limiter';
import { recordingFetch, type RecordedExchange } from '../../server/trading/exchanges/recording-fetch';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { startDispatcher } from '../../server/trading/start';
import { guardedFetch } from '../helpers/fetch-guard';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy, openPositions, tradingCustomer } from './fixtures';

const ACCOUNT_READ = '/api/v2/mix/account/account';
const PLACE_ORDER = '/api/v2/mix/order/place-order';

/**
 * Bitget orders carry the account's position mode and the symbol's margin mode (LIVE-FIDELITY B3).
 * The worker that owns an account reads them ahead for the symbols the account was prepared for, so
 * the first entry after a start goes out without a read in front of it.
 */
describe("a Bitget account's terms, and the markets, are read ahead", () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  const recorder = recordingFetch(guardedFetch);

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    const adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter: new ExchangeRateLimiter() });
    useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, adapters });
    dispatcher = await startDispatcher(ctx.deps, ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000 } });
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it("reads both exchanges' markets when the dispatcher starts, before any alert", async () => {
    const paths = () => recorder.requests.map((r) => r.path.split('?')[0]);
    await expect.poll(paths, { timeout: 5_000 }).toEqual(expect.arrayContaining(['/v5/market/instruments-info', '/api/v2/mix/market/contracts']));
  });

  it('the entry is the first request of the alert: no account read before it', async () => {
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold });
    const apiKey = customer.sandbox!.apiKey;
    const ofCustomer = (requests: RecordedExchange[]) => requests.filter((r) => r.headers['access-key'] === apiKey);
    // What preparing the strategy's accounts leaves behind: leverage and mode set for BTCUSDT (its NOTIFY reloads the account).
    await ctx.deps.db.insert(exchangeAccountSettings).values({ customerId: customer.customerId, platformType: Exchange.Bitget, symbol: 'BTCUSDT', leverage: 10, positionMode: PositionMode.OneWay });
    await expect.poll(() => ofCustomer(recorder.requests).filter((r) => r.path.startsWith(ACCOUNT_READ)).length, { timeout: 5_000 }).toBeGreaterThan(0);

    const alert = recorder.since();
    const strategy = await insertStrategy(ctx, { tp: [{ target: 2, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const { rows } = await openPositions(ctx, strategy.url);
    expect(rows.map((row) => row.state)).toEqual(['open']);
    const paths = ofCustomer(alert()).map((r) => r.path.split('?')[0]);
    expect(paths).toContain(PLACE_ORDER);
    expect(paths.slice(0, paths.indexOf(PLACE_ORDER))).not.toContain(ACCOUNT_READ);
  });
});
