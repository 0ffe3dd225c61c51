import path from 'node:path';

/** sandbox: the built-in fake exchanges; testnet: Bybit testnet and Bitget demo trading; live: real money. */
export type ExchangeMode = 'sandbox' | 'testnet' | 'live';

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
  /** BYBIT_ORDER_ENTRY: Bybit orders over each account's warm /v5/trade session (default, REST while it is down) or always REST. */
  bybitOrderEntry: 'websocket' | 'rest';
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
    bybitOrderEntry,
  };
}
