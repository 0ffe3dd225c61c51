import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { accounts, customers, executions } from '../db/schema/index';
import { saveWallet } from '../modules/account-health/repository';
import { sharedSandboxControl } from '../sandbox/index';

/** Each connected demo customer with the realized PnL of every position they held. */
export async function walletsOfHistory(deps: Pick<Deps, 'db'>): Promise<Array<{ customerId: number; email: string; uid: string; realizedPnl: number }>> {
  const rows = await deps.db
    .select({
      customerId: customers.id,
      email: accounts.email,
      uid: customers.exchangeAccountUuid,
      realizedPnl: sql<string>`coalesce((select sum(${executions.realizedPnl}) from ${executions} where ${executions.customerId} = ${customers.id}), 0)`,
    })
    .from(customers)
    .innerJoin(accounts, and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt)))
    .where(isNotNull(customers.exchangeAccountUuid))
    .orderBy(customers.id);
  return rows.map((row) => ({ customerId: row.customerId, email: row.email, uid: row.uid!, realizedPnl: Number(row.realizedPnl) }));
}

/**
 * The wallets follow the seeded history: each customer's sandbox account (opened with their deposit)
 * gains or loses their realized PnL, and the customer's wallet figure is that balance, as the wallet
 * sync would read it from the exchange.
 */
export async function settleDemoWallets(deps: Pick<Deps, 'db'>, depositOf: (email: string) => number): Promise<void> {
  const control = sharedSandboxControl();
  for (const wallet of await walletsOfHistory(deps)) {
    const balance = control.fund(wallet.uid, wallet.realizedPnl);
    const deposit = depositOf(wallet.email);
    if (Math.abs(balance - (deposit + wallet.realizedPnl)) > 1e-6) throw new Error(`The sandbox wallet of ${wallet.email} does not match its deposit and history`);
    await saveWallet(deps.db, wallet.customerId, balance);
  }
}
