import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { ENABLED_EXCHANGES, exchangeSlugs, type Exchange } from '../../contract/enums';
import type { Deps } from '../deps';
import { accounts, customers } from '../db/schema/index';
import { decryptCredentials } from '../lib/credentials';
import { sharedSandboxControl, type Credentials } from '../sandbox/index';
import { walletsOfHistory } from './wallets';

/**
 * The exchange sandbox this process serves under /sandbox keeps its accounts in memory. The demo
 * opens one sandbox account per demo customer at seeding time and re-opens the same accounts (same
 * uid, key and secret, read back from the encrypted columns) on every later start.
 */
export function openSandboxAccount(exchange: Exchange, balance: number, label: string): Credentials {
  const slug = exchangeSlugs[exchange];
  if (slug !== 'bybit' && slug !== 'bitget') throw new Error(`The sandbox has no ${slug} exchange`);
  return sharedSandboxControl().createAccount({ exchange: slug, balance, label });
}

/**
 * Re-creates the sandbox account of every connected live customer, holding their deposit plus the
 * realized PnL of their history (as seeding left it); answers how many.
 */
export async function restoreSandboxAccounts(deps: Pick<Deps, 'db' | 'secrets'>, depositOf: (email: string) => number): Promise<number> {
  const pnl = new Map((await walletsOfHistory(deps)).map((wallet) => [wallet.customerId, wallet.realizedPnl]));
  const rows = await deps.db
    .select({
      customerId: customers.id,
      accountId: customers.accountId,
      email: accounts.email,
      platformType: customers.platformType,
      uid: customers.exchangeAccountUuid,
      apiKeyEnc: customers.apiKeyEnc,
      apiSecretEnc: customers.apiSecretEnc,
      passphraseEnc: customers.passphraseEnc,
    })
    .from(customers)
    .innerJoin(accounts, and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt)))
    .where(and(inArray(customers.platformType, [...ENABLED_EXCHANGES]), isNotNull(customers.apiKeyEnc), isNotNull(customers.exchangeAccountUuid)));
  const control = sharedSandboxControl();
  let restored = 0;
  for (const row of rows) {
    const credentials = decryptCredentials(deps.secrets, row);
    const slug = exchangeSlugs[row.platformType as Exchange];
    if (!credentials || !row.uid || (slug !== 'bybit' && slug !== 'bitget')) continue;
    control.createAccount({
      exchange: slug,
      uid: row.uid,
      apiKey: credentials.apiKey,
      secret: credentials.secret,
      ...(credentials.passphrase ? { passphrase: credentials.passphrase } : {}),
      balance: depositOf(row.email) + (pnl.get(row.customerId) ?? 0),
      label: row.email,
    });
    restored += 1;
  }
  return restored;
}
