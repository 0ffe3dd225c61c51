import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { AccountStatus, AccountType, AmountType, CustomerGroup, Exchange, TakeProfitMode } from '../contract/enums';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createDb, type DbHandle } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import type { Deps } from '../server/deps';
import { strategies, strategyGroups } from '../server/db/schema/index';
import { encryptCredentials } from '../server/lib/credentials';
import { createLogger } from '../server/logger';
import { webhookTokenColumns } from '../server/modules/strategies/webhook-token';
import type { Dispatcher } from '../server/trading/dispatcher';
import type { ConnectionBudget } from '../server/trading/exchanges/bybit-ws/connection-budget';
import { useExchangeAccess } from '../server/trading/exchanges/for-deps';
import { shareEgressBudget, startDispatcher } from '../server/trading/start';
import type { SandboxProcess } from './sandbox-process';

/** One API server on its own database, optionally with a dispatcher in the same process (the default deployment). */
export interface BenchEnvironment {
  deps: Deps;
  handle: DbHandle;
  baseUrl: string;
  dispatcher: Dispatcher | undefined;
  close(): Promise<void>;
}

export async function openEnvironment(
  adminUrl: string,
  urlFor: (db: string) => string,
  name: string,
  sandbox: SandboxProcess,
  options: { withDispatcher: boolean; bybitOrderEntry: 'rest' | 'websocket'; tradeConnectionBudget?: ConnectionBudget },
): Promise<BenchEnvironment> {
  const { withDispatcher, bybitOrderEntry } = options;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const handle = createDb(urlFor(name), { max: 40 });
  await migrate(handle.pool);
  const dataDir = mkdtempSync(path.join(tmpdir(), `copytrade-bench-${name}-`));
  const config = { ...loadConfig({}), dataDir, databaseUrl: handle.url, masterKey: randomBytes(32).toString('base64'), logLevel: 'silent', runDispatcher: withDispatcher, bybitOrderEntry };
  const deps = createDeps(config, handle, createLogger('silent'));
  useExchangeAccess(deps, { sandboxUrl: sandbox.url, tradeConnectionBudget: options.tradeConnectionBudget });
  shareEgressBudget(deps);
  const app: FastifyInstance = await buildApp(deps);
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const dispatcher = withDispatcher ? await startDispatcher(deps, handle.pool, { config: { syncIntervalMs: 3_600_000 } }) : undefined;
  return {
    deps,
    handle,
    baseUrl,
    dispatcher,
    async close() {
      // Work still queued behind the rate limits is abandoned with the database.
      await Promise.race([dispatcher?.stop(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
      await app.close();
      await handle.close();
    },
  };
}

let strategyCount = 0;
export const SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;

/**
 * A strategy with a 2% stop and one take-profit (Bybit carries both on the entry), or with `ladder` a
 * take-profit ladder (TP1 1% 50%, TP2 2% 30%, TP3 3% 20%: four protective orders per position),
 * investing 0.01 (BTC) / 0.2 (ETH) per customer.
 */
export async function insertStrategy(
  deps: Deps,
  options: { groups: CustomerGroup[]; symbol?: (typeof SYMBOLS)[number]; exclusiveCustomerId?: number; ladder?: boolean },
): Promise<{ id: string; token: string }> {
  strategyCount += 1;
  const id = `BENCH${strategyCount}`;
  const token = randomBytes(24).toString('base64url');
  const symbol = options.symbol ?? 'BTCUSDT';
  await deps.db.insert(strategies).values({
    id, symbol, entryDirection: 1, leverage: 10, positionMode: 1, takeProfitType: AmountType.Percent, ...(options.ladder
      ? { takeProfitMode: TakeProfitMode.Partial, tp1TargetLevel: '1', tp1CloseVolume: '50', tp2TargetLevel: '2', tp2CloseVolume: '30', tp3TargetLevel: '3', tp3CloseVolume: '20' }
      : { takeProfitMode: TakeProfitMode.Full, tp1TargetLevel: '2', tp1CloseVolume: '100' }),
    stopLossType: AmountType.Percent, stopLossAmount: '2', exclusiveCustomerId: options.exclusiveCustomerId ?? null,
    ...webhookTokenColumns(deps.secrets, id, token),
  });
  await deps.db.insert(strategyGroups).values(options.groups.map((group) => ({ strategyId: id, group, investType: AmountType.Quantity, investAmount: symbol === 'BTCUSDT' ? '0.01' : '0.2' })));
  return { id, token };
}

export interface BenchCustomer {
  customerId: number;
  uid: string;
  exchange: 'bybit' | 'bitget';
}

/**
 * `count` active customers of `group` on one exchange, keys encrypted like production. With a sandbox
 * each gets a funded sandbox account and its leverage and one-way mode recorded as already applied
 * (the row the settings cache writes after a customer's first order on the symbol), so the alert's hot
 * path is the order alone.
 */
export async function insertCustomers(deps: Deps, sandbox: SandboxProcess | null, input: { count: number; exchange: 'bybit' | 'bitget'; group: CustomerGroup }): Promise<BenchCustomer[]> {
  const made: BenchCustomer[] = [];
  const platform = input.exchange === 'bybit' ? Exchange.Bybit : Exchange.Bitget;
  for (let start = 0; start < input.count; start += 500) {
    const size = Math.min(500, input.count - start);
    const accounts = await deps.db.execute<{ id: number }>(sql`
      insert into accounts (first_name, last_name, email, status, account_type, password_hash)
      select 'Bench', 'Customer' || g, 'bench.' || g || '.' || ${randomBytes(6).toString('hex')} || '@load.example.com', ${AccountStatus.Active}, ${AccountType.Customer}, 'x'
      from generate_series(1, ${size}) g returning id`);
    const credentials = await Promise.all(
      accounts.rows.map((row) => (sandbox ? sandbox.control.createAccount({ exchange: input.exchange, balance: 100_000 }) : { uid: '', apiKey: `k${row.id}`, secret: `s${row.id}`, passphrase: 'p' })),
    );
    const rows = accounts.rows.map((row, i) => {
      const creds = credentials[i]!;
      return { accountId: Number(row.id), uid: creds.uid, enc: encryptCredentials(deps.secrets, Number(row.id), { apiKey: creds.apiKey, apiSecret: creds.secret, passphrase: creds.passphrase || null }) };
    });
    const inserted = await deps.db.execute<{ id: number; account_id: number }>(sql`
      insert into customers (account_id, "group", application_source, platform_type, api_key_enc, api_key_last4, api_secret_enc, passphrase_enc)
      select u.account_id, ${input.group}, 1, ${platform}, u.key_enc, u.last4, u.secret_enc, u.pass_enc
      from unnest(${`{${rows.map((r) => r.accountId).join(',')}}`}::int[], ${pgArray(rows.map((r) => r.enc.apiKeyEnc))}::text[], ${pgArray(rows.map((r) => r.enc.apiKeyLast4))}::text[],
        ${pgArray(rows.map((r) => r.enc.apiSecretEnc))}::text[], ${pgArray(rows.map((r) => r.enc.passphraseEnc))}::text[]) as u(account_id, key_enc, last4, secret_enc, pass_enc)
      returning id, account_id`);
    const uidOf = new Map(rows.map((r) => [r.accountId, r.uid]));
    for (const row of inserted.rows) made.push({ customerId: Number(row.id), uid: uidOf.get(Number(row.account_id))!, exchange: input.exchange });
  }
  if (sandbox && made.length > 0) {
    for (const symbol of SYMBOLS) {
      await deps.db.execute(sql`
        insert into exchange_account_settings (customer_id, platform_type, symbol, leverage, position_mode)
        select unnest(${`{${made.map((c) => c.customerId).join(',')}}`}::int[]), ${platform}, ${symbol}, 10, 1`);
    }
  }
  return made;
}

const pgArray = (values: Array<string | null>) => `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/(["\\])/g, '\\$1')}"`)).join(',')}}`;
