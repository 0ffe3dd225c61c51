import type pg from 'pg';
import type { TradingDeps } from './deps';
import type { TradingConfig } from './config';
import { createDispatcher, newWorkerId, type Dispatcher } from './dispatcher';
import { recordEntryAudit } from '../lib/audits';
import { createPostgresEgressBudget } from './exchanges/egress-budget';
import { baseUrlOf, sharedConnectionBudget, sharedExchangeLimiter, type AddressBan, type ExchangeId } from './exchanges/index';
import { exchangeNames } from './exchanges/errors';
import { createTickerPrices, type PriceSource } from './prices';
import { exchangeIdOf, type TradingRuntime } from './runtime';
import { createPacer } from './pacing';
import { PlacedEntries } from './execution-state/entry';
import { createAccountLeases, leaseRoundMs } from './accounts/leases';
import { shareOrderEntryWindows } from './accounts/order-entry-share';
import { createWarmAccounts } from './accounts/warm';
import { wakeOnAccountNews } from './accounts/stream-wakes';
import { startAccountReconciler } from './accounts/account-reconciler';
import { createSettingsCache } from './settings-cache';

export interface TradingOptions {
  /** Overrides of the configuration's trading settings (tests, benchmark). */
  config?: Partial<TradingConfig>;
  prices?: PriceSource;
  worker?: string;
}

export type RuntimeDeps = Pick<TradingDeps, 'db' | 'secrets' | 'log' | 'config' | 'exchanges'>;

/** Builds the trading runtime of this process on its exchange access (`Deps.exchanges`): adapters, prices, settings cache. */
export function createTradingRuntime(deps: RuntimeDeps, options: TradingOptions = {}): TradingRuntime {
  const { adapters, mode, sandboxUrl, egress } = deps.exchanges;
  const worker = options.worker ?? newWorkerId();
  return {
    db: deps.db,
    secrets: deps.secrets,
    log: deps.log,
    config: { ...deps.config.trading, ...options.config },
    adapters: (platformType) => {
      const exchange = exchangeIdOf(platformType);
      return exchange ? adapters[exchange] : undefined;
    },
    prices: options.prices ?? createTickerPrices((exchange) => baseUrlOf(exchange, { mode, sandboxUrl }), egress),
    settings: createSettingsCache(deps.db),
    pacer: createPacer(),
    worker,
    placedEntries: new PlacedEntries({ db: deps.db, worker }),
    rechecks: new Set(),
  };
}

/**
 * This process's exchange requests count against one budget per exchange and egress address, shared
 * through PostgreSQL with every other process on that address (API servers and workers alike), and
 * so do the address bans the exchanges answer and the new Bybit trade connections (500 per 5 minutes).
 * Its own address's windows are shared from now on, so the first request after a start finds its part.
 * Answers the function that stops sharing at shutdown (what this process still holds stays counted).
 */
export function shareEgressBudget(deps: Pick<TradingDeps, 'db' | 'log' | 'exchanges'>): () => Promise<void> {
  const onError = (error: unknown) => deps.log.error({ err: error }, 'could not share the address budget or a ban with the other processes');
  const budget = createPostgresEgressBudget(deps.db, { bans: sharedExchangeLimiter.bans, onError });
  sharedExchangeLimiter.shareBudget(budget);
  sharedConnectionBudget.share(budget);
  for (const exchange of Object.keys(deps.exchanges.adapters) as ExchangeId[]) sharedExchangeLimiter.openAddress(exchange, deps.exchanges.egress);
  return async () => {
    sharedConnectionBudget.share(undefined);
    await budget.stop?.();
  };
}

/**
 * An exchange banning this server's address (Bybit's 403 after the per-address ceiling) is audited
 * once per ban and staff are told (the entry audit notifies them); the limiter holds every request
 * to that exchange meanwhile.
 */
export function auditAddressBans(deps: Pick<TradingDeps, 'db' | 'log'>): () => void {
  return sharedExchangeLimiter.onAddressBan((ban: AddressBan) => {
    const name = exchangeNames[ban.exchange];
    const message =
      `${name} banned requests from this server's address (${ban.egress}) until ${new Date(ban.until).toISOString()} (${ban.reason} after its per-address ceiling): ` +
      `nothing is sent to ${name} until then, entries whose deadline ends first are dropped, and open positions keep the stops already on ${name}`;
    deps.log.warn({ exchange: ban.exchange, egress: ban.egress, until: ban.until }, 'exchange banned this address');
    recordEntryAudit(deps.db, { orderId: null, customerId: null, strategyId: null, entryType: null, message }).catch((error: unknown) =>
      deps.log.error({ err: error }, 'could not audit the address ban'),
    );
  });
}

/**
 * The exchanges' market lists (sizes, ticks, leverage bounds) are read when the dispatcher starts,
 * in the background, instead of by the first entry after a start (30-50 ms in front of its order).
 * A failed read is left to the first entry, which reads them again.
 */
function loadMarketsAhead(deps: RuntimeDeps): void {
  for (const adapter of Object.values(deps.exchanges.adapters)) {
    adapter.loadMarkets().catch((error: unknown) => deps.log.warn({ err: error }, 'could not read the exchange markets ahead; the first entry reads them'));
  }
}

/**
 * Starts the dispatcher of this process (API server with RUN_DISPATCHER on, or `npm run worker`) and
 * attaches it to this process's intake, so the alerts received here start their executions here.
 */
export async function startDispatcher(deps: RuntimeDeps & Pick<TradingDeps, 'intake'>, pool: pg.Pool, options: TradingOptions = {}): Promise<Dispatcher> {
  const runtime = createTradingRuntime(deps, options);
  const onError = (error: unknown) => deps.log.error({ err: error }, 'account leases or warm accounts failed');
  const orderEntryWindows = Object.values(deps.exchanges.adapters).flatMap((adapter) => (adapter.orderEntryWindow ? [adapter.orderEntryWindow] : []));
  const leases = createAccountLeases(deps.db, runtime.worker, runtime.config.leaseMs, onError, orderEntryWindows[0]?.egress);
  shareOrderEntryWindows(leases, orderEntryWindows, 2 * leaseRoundMs(runtime.config.leaseMs));
  const accounts = createWarmAccounts({ db: deps.db, secrets: deps.secrets, leases, settings: runtime.settings, adapters: runtime.adapters, onError, log: deps.log });
  runtime.accounts = accounts;
  const dispatcher = createDispatcher(runtime, pool, leases);
  const reconciler = startAccountReconciler({
    db: deps.db,
    accounts,
    adapters: runtime.adapters,
    intervalMs: runtime.config.reconcileIntervalMs,
    onError: (error) => deps.log.warn({ err: error }, 'the reconciler could not check an account; it is checked again at its next round'),
  });
  const stopWaking = wakeOnAccountNews({
    db: deps.db,
    worker: runtime.worker,
    adapters: Object.values(deps.exchanges.adapters),
    accounts,
    rechecks: runtime.rechecks,
    wakeDispatcher: () => dispatcher.wake(),
    onResynced: (customerId) => reconciler.checkSoon(customerId),
    onError: (error) => deps.log.error({ err: error }, 'waking executions on private stream news failed'),
  });
  const stopAuditingBans = auditAddressBans(deps);
  loadMarketsAhead(deps);
  await leases.start();
  await accounts.start(pool);
  await dispatcher.start();
  const detach = deps.intake.handoff.attach(dispatcher);
  return {
    ...dispatcher,
    async stop() {
      detach();
      stopWaking();
      reconciler.stop();
      stopAuditingBans();
      await dispatcher.stop();
      await accounts.stop();
      await leases.stop();
      for (const window of orderEntryWindows) window.share(1);
    },
  };
}
