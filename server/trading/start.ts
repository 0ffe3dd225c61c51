import type pg from 'pg';
import type { Deps } from '../deps';
import { loadTradingConfig, type TradingConfig } from './config';
import { createDispatcher, newWorkerId, type Dispatcher } from './dispatcher';
import { baseUrlOf, createExchangeAdapters } from './exchanges/index';
import type { ExchangeAdapter, ExchangeId } from './exchanges/types';
import { createTickerPrices, type PriceSource } from './prices';
import { exchangeIdOf, type TradingRuntime } from './runtime';
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
  const adapters = options.adapters ?? createExchangeAdapters({ mode, sandboxUrl, timeoutMs: options.exchangeTimeoutMs ?? numberEnv('EXCHANGE_TIMEOUT_MS') });
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
    worker: options.worker ?? newWorkerId(),
  };
}

/** Starts the dispatcher of this process (API server with RUN_DISPATCHER on, or `npm run worker`). */
export async function startDispatcher(deps: Pick<Deps, 'db' | 'secrets' | 'log' | 'config'>, pool: pg.Pool, options: TradingOptions = {}): Promise<Dispatcher> {
  const dispatcher = createDispatcher(createTradingRuntime(deps, options), pool);
  await dispatcher.start();
  return dispatcher;
}
