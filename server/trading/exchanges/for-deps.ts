import type { Config } from '../../config';
import type { FetchImplementation } from './ccxt-client';
import { createExchangeAdapters } from './index';
import type { ExchangeAdapter, ExchangeId } from './types';

/** How this app reaches the exchanges: adapters, the sandbox base URL and the fetch for OAuth calls. */
export interface ExchangeAccess {
  mode: Config['exchangeMode'];
  /** Sandbox mode only: where both fake exchanges (and their OAuth pages) answer. */
  sandboxUrl: string | undefined;
  adapters: Record<ExchangeId, ExchangeAdapter>;
  fetch: FetchImplementation;
}

const byConfig = new WeakMap<Config, ExchangeAccess>();

/** SANDBOX_URL, else the sandbox mounted in this server (`npm start` mounts it under /sandbox). */
export function defaultSandboxUrl(config: Config): string {
  return (process.env.SANDBOX_URL ?? `http://127.0.0.1:${config.port}/sandbox`).replace(/\/+$/, '');
}

/** The exchange access of an app (one per configuration object), created on first use. */
export function exchangeAccessOf(deps: { config: Config }): ExchangeAccess {
  const existing = byConfig.get(deps.config);
  if (existing) return existing;
  return useExchangeAccess(deps, {});
}

/** Sets how an app reaches the exchanges (tests: the standalone sandbox and the 127.0.0.1 fetch guard). */
export function useExchangeAccess(deps: { config: Config }, options: { sandboxUrl?: string; fetchImplementation?: FetchImplementation; adapters?: Record<ExchangeId, ExchangeAdapter> }): ExchangeAccess {
  const mode = deps.config.exchangeMode;
  const sandboxUrl = mode === 'sandbox' ? (options.sandboxUrl ?? defaultSandboxUrl(deps.config)).replace(/\/+$/, '') : undefined;
  const fetchImplementation = options.fetchImplementation ?? ((url: string, init?: RequestInit) => fetch(url, init));
  const access: ExchangeAccess = {
    mode,
    sandboxUrl,
    adapters: options.adapters ?? createExchangeAdapters({ mode, sandboxUrl, fetchImplementation: options.fetchImplementation, bybitOrderEntry: deps.config.bybitOrderEntry }),
    fetch: fetchImplementation,
  };
  byConfig.set(deps.config, access);
  return access;
}
