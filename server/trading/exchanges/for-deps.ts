import type { Config } from '../../config';
import type { FetchImplementation } from './ccxt-client';
import { createExchangeAdapters } from './index';
import type { ConnectionBudget } from './bybit-ws/connection-budget';
import type { ExchangeRateLimiter } from './rate-limiter';
import type { ExchangeAdapter, ExchangeId } from './types';

/** How this app reaches the exchanges: adapters, the sandbox base URL and the fetch for OAuth calls. Lives in `Deps.exchanges`. */
export interface ExchangeAccess {
  mode: Config['exchangeMode'];
  /** Sandbox mode only: where both fake exchanges (and their OAuth pages) answer. */
  sandboxUrl: string | undefined;
  /** The name of the outgoing address (EXCHANGE_EGRESS), the rate limiter's key. */
  egress: string;
  adapters: Record<ExchangeId, ExchangeAdapter>;
  fetch: FetchImplementation;
  bybitOAuth: Config['exchanges']['bybitOAuth'];
}

export interface ExchangeAccessOptions {
  sandboxUrl?: string | undefined;
  fetchImplementation?: FetchImplementation | undefined;
  adapters?: Record<ExchangeId, ExchangeAdapter> | undefined;
  limiter?: ExchangeRateLimiter | undefined;
  timeoutMs?: number | undefined;
  /** New Bybit trade connections per address (benchmarks that warm thousands of sessions shorten its window). */
  tradeConnectionBudget?: ConnectionBudget | undefined;
}

/** SANDBOX_URL, else the sandbox mounted in this server (`npm start` mounts it under /sandbox). */
export function defaultSandboxUrl(config: Pick<Config, 'port' | 'exchanges'>): string {
  return (config.exchanges.sandboxUrl ?? `http://127.0.0.1:${config.port}/sandbox`).replace(/\/+$/, '');
}

/**
 * The exchange access of a configuration. Adapters are built once per access (ccxt instances, markets
 * loaded lazily); `createDeps` builds the app's, tests replace it through `useExchangeAccess`.
 */
export function createExchangeAccess(config: Pick<Config, 'port' | 'exchangeMode' | 'exchanges' | 'bybitOrderEntry'>, options: ExchangeAccessOptions = {}): ExchangeAccess {
  const mode = config.exchangeMode;
  const sandboxUrl = mode === 'sandbox' ? (options.sandboxUrl ?? defaultSandboxUrl(config)).replace(/\/+$/, '') : undefined;
  const fetchImplementation = options.fetchImplementation ?? ((url: string, init?: RequestInit) => fetch(url, init));
  const egress = config.exchanges.egress;
  return {
    mode,
    sandboxUrl,
    egress,
    adapters:
      options.adapters ??
      createExchangeAdapters({
        mode,
        sandboxUrl,
        egress,
        brokerCodes: config.exchanges.brokerCodes,
        fetchImplementation: options.fetchImplementation,
        limiter: options.limiter,
        timeoutMs: options.timeoutMs ?? config.exchanges.timeoutMs,
        bybitOrderEntry: config.bybitOrderEntry,
        tradeConnectionBudget: options.tradeConnectionBudget,
      }),
    fetch: fetchImplementation,
    bybitOAuth: config.exchanges.bybitOAuth,
  };
}

/** Points an app's Deps at other exchanges (tests: the standalone sandbox, the 127.0.0.1 fetch guard, scripted adapters). */
export function useExchangeAccess(deps: { config: Config; exchanges: ExchangeAccess }, options: ExchangeAccessOptions): ExchangeAccess {
  deps.exchanges = createExchangeAccess(deps.config, options);
  return deps.exchanges;
}
