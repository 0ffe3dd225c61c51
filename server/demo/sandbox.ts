import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { ENABLED_EXCHANGES, exchangeSlugs, type Exchange } from '../../contract/enums';
import type { Deps } from '../deps';
import { accounts, customers } from '../db/schema/index';
import { decryptCredentials } from '../lib/credentials';
import { sharedSandboxControl, type Credentials } from '../sandbox/index';

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

/** Re-creates the sandbox account of every connected live customer; answers how many. */
export async function restoreSandboxAccounts(deps: Pick<Deps, 'db' | 'secrets'>, balanceOf: (email: string) => number): Promise<number> {
  const rows = await deps.db
    .select({
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
      balance: balanceOf(row.email),
      label: row.email,
    });
    restored += 1;
  }
  return restored;
}
