import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { ChannelListener } from '../../db/channel-listener';
import type { Db } from '../../db/client';
import { decryptCredentials } from '../../lib/credentials';
import type { Secrets } from '../../lib/secrets';
import { Semaphore } from '../exchanges/semaphore';
import type { AdapterLookup, Credentials } from '../exchanges/types';
import type { SettingsCache } from '../settings-cache';
import { ACCOUNT_SLICES, type AccountLeases } from './leases';
import { Exchange } from '../../../contract/enums';

/** NOTIFY channel of the triggers on `customers` (key, exchange) and `exchange_account_settings` (migration 0018); payload: the customer id. */
export const ACCOUNTS_CHANNEL = 'trading_accounts_changed';

/**
 * Accounts whose terms are read ahead (`warmAccountTerms`): one at a time, at most this many a second,
 * so that after a start the reads (one per symbol) take a small share of the address's request budget
 * (Bitget: 6,000 a minute) and leave the rest to orders.
 */
const TERM_READ_ACCOUNTS_PER_SECOND = 5;

/**
 * The accounts of this worker's slices, warm: decrypted keys in memory, and the leverage and mode
 * already set on the exchange handed to the settings cache, so an execution's hot path reads neither
 * from the database. Loaded when slices are taken, dropped when they move on, reloaded per customer
 * on the NOTIFY of a change. Each warm account's order-entry session is opened ahead of alerts
 * (`adapter.warmSessions`: Bybit's /v5/trade socket) and closed when the account leaves this worker;
 * what its orders must carry of the account is read ahead for the symbols it was prepared for
 * (`adapter.warmAccountTerms`: Bitget's position and margin modes).
 */
export interface WarmAccounts {
  credentials(customerId: number): Credentials | undefined;
  /** The customer whose warm account has this API key. */
  customerOf(apiKey: string): number | undefined;
  /** Every warm account of this worker's slices. */
  list(): Array<{ customerId: number; platformType: number; credentials: Credentials }>;
  size(): number;
  start(pool: pg.Pool): Promise<void>;
  stop(): Promise<void>;
}

interface AccountRow extends Record<string, unknown> {
  id: number;
  account_id: number;
  platform_type: number;
  api_key_enc: string | null;
  api_secret_enc: string | null;
  passphrase_enc: string | null;
}

interface StoredSettingsRow extends Record<string, unknown> {
  customer_id: number;
  platform_type: number;
  symbol: string;
  leverage: number;
  position_mode: number;
}

interface WarmAccount {
  credentials: Credentials;
  platformType: number;
}

/** The connected customers of the given slices (`customerIds`: only those). */
async function readAccounts(db: Db, slices: number[], customerIds: number[] | null): Promise<AccountRow[]> {
  const only = customerIds ? sql`and c.id in ${customerIds}` : sql``;
  const rows = await db.execute<AccountRow>(sql`
    select c.id, c.account_id, c.platform_type, c.api_key_enc, c.api_secret_enc, c.passphrase_enc from customers c
    where c.platform_type in (${Exchange.Bitget}, ${Exchange.Bybit}) and c.id % ${ACCOUNT_SLICES} in ${slices} ${only}`);
  return rows.rows;
}

/** The leverage and mode already set on the exchange per customer and symbol, for the given slices. */
async function readStoredSettings(db: Db, slices: number[], customerIds: number[] | null): Promise<StoredSettingsRow[]> {
  const only = customerIds ? sql`and customer_id in ${customerIds}` : sql``;
  const rows = await db.execute<StoredSettingsRow>(sql`
    select customer_id, platform_type, symbol, leverage, position_mode from exchange_account_settings
    where customer_id % ${ACCOUNT_SLICES} in ${slices} ${only}`);
  return rows.rows;
}

/** Same exchange and same key: (e.g. only its stored leverage moved) its session stays open. */
function sameAccount(prior: WarmAccount | undefined, next: WarmAccount): boolean {
  return prior !== undefined && prior.platformType === next.platformType && prior.credentials.apiKey === next.credentials.apiKey && prior.credentials.secret === next.credentials.secret;
}

/**
 * An account's terms for the symbols it was prepared for, read ahead one account at a time (paced: see
 * TERM_READ_ACCOUNTS_PER_SECOND; an account already known sends nothing and waits for nothing). A read
 * that fails is left to the entry, which reads again and reports what the exchange answers.
 */
function readTermsAhead(reads: Semaphore, adapters: AdapterLookup, account: () => WarmAccount | undefined, symbols: string[]): void {
  void reads.acquire().then(async (release) => {
    try {
      const warm = account();
      if (warm && (await adapters(warm.platformType)?.warmAccountTerms(warm.credentials, symbols))) {
        await new Promise((resolve) => setTimeout(resolve, 1000 / TERM_READ_ACCOUNTS_PER_SECOND));
      }
    } catch {
      // see above
    } finally {
      release();
    }
  });
}

/** The decrypted keys of the warm accounts, by customer and by API key; a key dropped has its session closed. */
class WarmKeys {
  private readonly byCustomer = new Map<number, WarmAccount>();
  private readonly byApiKey = new Map<string, number>();

  constructor(
    private readonly secrets: Secrets,
    private readonly adapters: AdapterLookup,
    private readonly onError: (error: unknown) => void,
  ) {}

  get(customerId: number): WarmAccount | undefined {
    return this.byCustomer.get(customerId);
  }

  customerOf(apiKey: string): number | undefined {
    return this.byApiKey.get(apiKey);
  }

  customers(): number[] {
    return [...this.byCustomer.keys()];
  }

  entries(): Array<[number, WarmAccount]> {
    return [...this.byCustomer];
  }

  get size(): number {
    return this.byCustomer.size;
  }

  /** Keeps the rows' keys, drops those of `customerIds` (null: of all) no longer connected, and opens the new ones' sessions. */
  open(rows: AccountRow[], customerIds: number[] | null): void {
    const opened = new Map<number, Credentials[]>();
    const seen = new Set<number>();
    for (const row of rows) {
      const credentials = decryptCredentials(this.secrets, { accountId: Number(row.account_id), apiKeyEnc: row.api_key_enc, apiSecretEnc: row.api_secret_enc, passphraseEnc: row.passphrase_enc });
      if (!credentials) continue;
      const customerId = Number(row.id);
      const account = { credentials, platformType: Number(row.platform_type) };
      seen.add(customerId);
      if (sameAccount(this.byCustomer.get(customerId), account)) continue;
      this.drop(customerId);
      this.byCustomer.set(customerId, account);
      this.byApiKey.set(credentials.apiKey, customerId);
      opened.set(account.platformType, [...(opened.get(account.platformType) ?? []), credentials]);
    }
    for (const customerId of customerIds ?? this.customers()) if (!seen.has(customerId)) this.drop(customerId);
    for (const [platformType, accounts] of opened) this.adapters(platformType)?.warmSessions(accounts).catch(this.onError);
  }

  /** Forgets an account and closes its session. */
  drop(customerId: number): void {
    const account = this.byCustomer.get(customerId);
    if (!account) return;
    this.byCustomer.delete(customerId);
    if (this.byApiKey.get(account.credentials.apiKey) === customerId) this.byApiKey.delete(account.credentials.apiKey);
    this.adapters(account.platformType)?.closeSessions([account.credentials]);
  }
}

export function createWarmAccounts(input: {
  db: Db;
  secrets: Secrets;
  leases: AccountLeases;
  settings: SettingsCache;
  adapters: AdapterLookup;
  onError: (error: unknown) => void;
  log: FastifyBaseLogger;
}): WarmAccounts {
  const { db, leases, settings } = input;
  const keys = new WarmKeys(input.secrets, input.adapters, input.onError);
  const termReads = new Semaphore(1);
  let listener: ChannelListener | undefined;

  /** Loads the given customers (null: every customer of the owned slices). */
  async function load(customerIds: number[] | null): Promise<void> {
    const slices = [...leases.owned()];
    if (slices.length === 0) return;
    keys.open(await readAccounts(db, slices, customerIds), customerIds);
    const symbolsOf = new Map<number, string[]>();
    for (const row of await readStoredSettings(db, slices, customerIds)) {
      const customerId = Number(row.customer_id);
      settings.remember(customerId, Number(row.platform_type), row.symbol, { leverage: Number(row.leverage), positionMode: Number(row.position_mode) });
      symbolsOf.set(customerId, [...(symbolsOf.get(customerId) ?? []), row.symbol]);
    }
    for (const [customerId, symbols] of symbolsOf) readTermsAhead(termReads, input.adapters, () => (leases.owns(customerId) ? keys.get(customerId) : undefined), symbols);
  }

  /** The NOTIFY of a change to one customer's key or stored settings. */
  function changed(customerId: number): void {
    if (!Number.isInteger(customerId) || !leases.owns(customerId)) return;
    // The stored settings may have changed too: the cache re-reads what it no longer knows.
    settings.forget(customerId);
    load([customerId]).catch(input.onError);
  }

  /** After a reconnection: the changes sent while the connection was lost went unheard. */
  function reloadAll(): void {
    for (const customerId of keys.customers()) settings.forget(customerId);
    load(null).catch(input.onError);
  }

  leases.onChange(() => {
    for (const customerId of keys.customers()) {
      if (!leases.owns(customerId)) {
        keys.drop(customerId);
        settings.forget(customerId);
      }
    }
    load(null).catch(input.onError);
  });

  return {
    credentials: (customerId) => (leases.owns(customerId) ? keys.get(customerId)?.credentials : undefined),
    customerOf: (apiKey) => keys.customerOf(apiKey),
    list: () => keys.entries().filter(([customerId]) => leases.owns(customerId)).map(([customerId, account]) => ({ customerId, ...account })),
    size: () => keys.size,
    async start(pool) {
      let started = false;
      listener = new ChannelListener(pool.options, ACCOUNTS_CHANNEL, { message: (payload) => changed(Number(payload)), listening: () => started && reloadAll() }, input.log, 'warm-accounts');
      await listener.start();
      started = true;
      await load(null);
    },
    async stop() {
      await listener?.stop();
      listener = undefined;
      for (const customerId of keys.customers()) keys.drop(customerId);
    },
  };
}
