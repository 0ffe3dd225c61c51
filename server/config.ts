import path from 'node:path';
import { loadTradingConfig, type ExchangeMode, type TradingConfig } from './trading/config';
import type { ExchangeId } from './trading/exchanges/types';

/** sandbox: the built-in fake exchanges; testnet: Bybit testnet and Bitget demo trading; live: real money. */

export interface Config {
  port: number;
  host: string;
  /** Where the embedded PostgreSQL, the mail outbox and the generated master key live. */
  dataDir: string;
  /** External PostgreSQL; when unset the embedded one in DATA_DIR/pg is used. */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  /** 32-byte key (base64 or hex) for exchange secrets; generated into DATA_DIR when unset. */
  masterKey: string | undefined;
  exchangeMode: ExchangeMode;
  /** Address people use to reach this server (links in mails, OAuth redirect URIs). */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set. When not, quick connect builds its browser-facing URLs from the
   * loopback name the browser used (localhost or 127.0.0.1 on PORT), so either works.
   */
  publicUrlConfigured: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  /** When false, the server leaves the execution queue to `npm run worker` processes. */
  runDispatcher: boolean;
  /** TRUST_PROXY: take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy: boolean;
  /** WALLET_SYNC_INTERVAL_MS: period of the customers' wallet and key check. */
  walletSyncIntervalMs: number;
  /** How the engine trades: deadlines, duplicate window, dispatcher sizing (read once, here). */
  trading: TradingConfig;
  exchanges: ExchangeSettings;
  /** BYBIT_ORDER_ENTRY: Bybit orders over each account's warm /v5/trade session (default, REST while it is down) or always REST. */
  bybitOrderEntry: 'websocket' | 'rest';
  /** METRICS_TOKEN: the bearer token GET /metrics requires; unset, the route does not exist. */
  metricsToken: string | undefined;
}

/** How this process reaches the exchanges. */
export interface ExchangeSettings {
  /** SANDBOX_URL: the sandbox when it is not this server's own /sandbox. */
  sandboxUrl: string | undefined;
  /** EXCHANGE_EGRESS: the name of the outgoing address this process's requests leave from (the limiter's key). */
  egress: string;
  /** BYBIT_BROKER_CODE, BITGET_BROKER_CODE. */
  brokerCodes: Record<ExchangeId, string>;
  /** EXCHANGE_TIMEOUT_MS: one exchange request's timeout (the adapters' default when unset). */
  timeoutMs: number | undefined;
  /** BYBIT_OAUTH_CLIENT_ID / _SECRET: Bybit quick connect (live mode). */
  bybitOAuth: { clientId: string; clientSecret: string } | undefined;
}

/** Our broker attribution (Bybit `Referer`, Bitget `X-CHANNEL-API-CODE`) when none is configured. */
export const DEFAULT_BROKER_CODE = 'COPYTRADE';
/** The egress name of a process that sets no EXCHANGE_EGRESS. */
export const DEFAULT_EGRESS = 'default';
const DEFAULT_WALLET_SYNC_INTERVAL_MS = 5 * 60_000;

function walletSyncIntervalFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.WALLET_SYNC_INTERVAL_MS;
  if (raw === undefined || raw === '') return DEFAULT_WALLET_SYNC_INTERVAL_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10_000) throw new Error(`WALLET_SYNC_INTERVAL_MS must be a whole number of milliseconds, at least 10000, got '${raw}'`);
  return value;
}

function exchangeSettingsFrom(env: NodeJS.ProcessEnv): ExchangeSettings {
  const timeout = Number(env.EXCHANGE_TIMEOUT_MS);
  const clientId = env.BYBIT_OAUTH_CLIENT_ID;
  const clientSecret = env.BYBIT_OAUTH_CLIENT_SECRET;
  return {
    sandboxUrl: env.SANDBOX_URL ? env.SANDBOX_URL.replace(/\/+$/, '') : undefined,
    egress: env.EXCHANGE_EGRESS || DEFAULT_EGRESS,
    brokerCodes: { bybit: env.BYBIT_BROKER_CODE || DEFAULT_BROKER_CODE, bitget: env.BITGET_BROKER_CODE || DEFAULT_BROKER_CODE },
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    bybitOAuth: clientId && clientSecret ? { clientId, clientSecret } : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const exchangeMode = (env.EXCHANGE_MODE ?? 'sandbox') as ExchangeMode;
  if (exchangeMode !== 'sandbox' && exchangeMode !== 'testnet' && exchangeMode !== 'live') {
    throw new Error(`EXCHANGE_MODE must be 'sandbox', 'testnet' or 'live', got '${env.EXCHANGE_MODE}'`);
  }
  const host = env.HOST ?? '127.0.0.1';
  const bybitOrderEntry = env.BYBIT_ORDER_ENTRY ?? 'websocket';
  if (bybitOrderEntry !== 'websocket' && bybitOrderEntry !== 'rest') throw new Error(`BYBIT_ORDER_ENTRY must be 'websocket' or 'rest', got '${bybitOrderEntry}'`);
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    masterKey: env.MASTER_KEY || undefined,
    exchangeMode,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    runDispatcher: env.RUN_DISPATCHER !== 'false',
    trustProxy: env.TRUST_PROXY === 'true',
    walletSyncIntervalMs: walletSyncIntervalFrom(env),
    trading: loadTradingConfig(exchangeMode, env),
    exchanges: exchangeSettingsFrom(env),
    bybitOrderEntry,
    metricsToken: env.METRICS_TOKEN || undefined,
  };
}
