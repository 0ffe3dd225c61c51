import type pg from 'pg';
import type { Deps } from '../deps';
import { loadTradingConfig, type TradingConfig } from './config';
import { createDispatcher, newWorkerId, type Dispatcher } from './dispatcher';
import { recordEntryAudit } from '../lib/audits';
import { baseUrlOf, createExchangeAdapters, sharedExchangeLimiter, type AddressBan } from './exchanges/index';
import { exchangeNames } from './exchanges/errors';
import type { ExchangeAdapter, ExchangeId } from './exchanges/types';
import { createTickerPrices, type PriceSource } from './prices';
import { exchangeIdOf, type TradingRuntime } from './runtime';
import { createPacer } from './pacing';
import { createSettingsCache } from './settings-cache';

export interface TradingOptions {
  /** Base URL of the exchange sandbox (sandbox mode). Default: SANDBOX_URL, else this server's /sandbox. */
  sandboxUrl?: string;
  /** Overrides of the environment's trading settings (tests, benchmark). */
  config?: Partial<TradingConfig>;
  adapters?: Record<ExchangeId, ExchangeAdapter>;
  prices?: PriceSource;
  worker?: string;
  /** Exchange request timeout (default the adapters' 10 s). */
  exchangeTimeoutMs?: number;
}

function numberEnv(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export function sandboxUrlFor(deps: Pick<Deps, 'config'>, explicit?: string): string {
  return (explicit ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${deps.config.port}/sandbox`).replace(/\/+$/, '');
}

/** Builds the trading runtime of this process: adapters (sharing one rate limiter), prices, settings cache. */
export function createTradingRuntime(deps: Pick<Deps, 'db' | 'secrets' | 'log' | 'config'>, options: TradingOptions = {}): TradingRuntime {
  const mode = deps.config.exchangeMode;
  const sandboxUrl = mode === 'sandbox' ? sandboxUrlFor(deps, options.sandboxUrl) : undefined;
  const adapters = options.adapters ?? createExchangeAdapters({ mode, sandboxUrl, timeoutMs: options.exchangeTimeoutMs ?? numberEnv('EXCHANGE_TIMEOUT_MS'), bybitOrderEntry: deps.config.bybitOrderEntry });
  return {
    db: deps.db,
    secrets: deps.secrets,
    log: deps.log,
    config: { ...loadTradingConfig(mode), ...options.config },
    adapters: (platformType) => {
      const exchange = exchangeIdOf(platformType);
      return exchange ? adapters[exchange] : undefined;
    },
    prices: options.prices ?? createTickerPrices((exchange) => baseUrlOf(exchange, { mode, sandboxUrl })),
    settings: createSettingsCache(deps.db),
    pacer: createPacer(),
    worker: options.worker ?? newWorkerId(),
  };
}

/**
 * An exchange banning this server's address (Bybit's 403 after the per-address ceiling) is audited
 * once per ban and staff are told (the entry audit notifies them); the limiter holds every request
 * to that exchange meanwhile.
 */
export function auditAddressBans(deps: Pick<Deps, 'db' | 'log'>): () => void {
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

/** Starts the dispatcher of this process (API server with RUN_DISPATCHER on, or `npm run worker`). */
export async function startDispatcher(deps: Pick<Deps, 'db' | 'secrets' | 'log' | 'config'>, pool: pg.Pool, options: TradingOptions = {}): Promise<Dispatcher> {
  const dispatcher = createDispatcher(createTradingRuntime(deps, options), pool);
  const stopAuditingBans = auditAddressBans(deps);
  await dispatcher.start();
  return {
    ...dispatcher,
    async stop() {
      stopAuditingBans();
      await dispatcher.stop();
    },
  };
}
