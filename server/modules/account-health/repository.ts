import { and, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { healthSearchBody, HealthRow } from '../../../contract/api/accountHealth';
import { ENABLED_EXCHANGES } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { likePattern, offsetOf } from '../../db/paging';
import { accounts, customerHealth, customers } from '../../db/schema/index';
import { maskKey } from '../../lib/secrets';

/** A customer whose exchange key the sync reads. */
export interface ConnectedCustomer {
  customerId: number;
  accountId: number;
  firstName: string;
  lastName: string;
  platformType: number;
  apiKeyEnc: string | null;
  apiSecretEnc: string | null;
  passphraseEnc: string | null;
  withdrawalAlertedAt: Date | null;
}

const connected = and(isNotNull(customers.apiKeyEnc), inArray(customers.platformType, [...ENABLED_EXCHANGES]), isNull(accounts.deletedAt));

export async function connectedCustomers(db: DbOrTx, customerId?: number): Promise<ConnectedCustomer[]> {
  return db
    .select({
      customerId: customers.id,
      accountId: customers.accountId,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      platformType: customers.platformType,
      apiKeyEnc: customers.apiKeyEnc,
      apiSecretEnc: customers.apiSecretEnc,
      passphraseEnc: customers.passphraseEnc,
      withdrawalAlertedAt: customerHealth.withdrawalAlertedAt,
    })
    .from(customers)
    .innerJoin(accounts, eq(accounts.id, customers.accountId))
    .leftJoin(customerHealth, eq(customerHealth.customerId, customers.id))
    .where(customerId === undefined ? connected : and(connected, eq(customers.id, customerId)))
    .orderBy(customers.id);
}

export type HealthValues = Omit<typeof customerHealth.$inferInsert, 'customerId'>;

export async function saveHealth(db: DbOrTx, customerId: number, values: HealthValues): Promise<void> {
  await db.insert(customerHealth).values({ customerId, ...values }).onConflictDoUpdate({ target: customerHealth.customerId, set: values });
}

/**
 * An unchanged balance writes nothing: the column is in five indexes, and a new row version would
 * also make every list re-read the customer's row (server/db/versioned-rows.ts).
 */
export async function saveWallet(db: DbOrTx, customerId: number, total: number): Promise<void> {
  const amount = total.toFixed(8);
  await db
    .update(customers)
    .set({ currentWalletAmount: amount })
    .where(and(eq(customers.id, customerId), sql`${customers.currentWalletAmount} is distinct from ${amount}::numeric`));
}

/** Not checked yet, refused key, no trading, withdrawal allowed, or a failed last sync. */
const problem = sql<boolean>`(${customerHealth.customerId} is null or ${customerHealth.keyValid} is not true or ${customerHealth.canTrade} is not true or ${customerHealth.canWithdraw} is true or ${customerHealth.lastError} is not null)`;

export async function searchHealth(db: DbOrTx, filter: z.infer<typeof healthSearchBody>): Promise<{ rows: HealthRow[]; total: number }> {
  const conditions: SQL[] = [connected!];
  if (filter.platformType) conditions.push(eq(customers.platformType, filter.platformType));
  if (filter.problemsOnly) conditions.push(problem);
  if (filter.withdrawalEnabled) conditions.push(eq(customerHealth.canWithdraw, true));
  if (filter.keyInvalid) conditions.push(eq(customerHealth.keyValid, false));
  if (filter.name) {
    const pattern = likePattern(filter.name);
    conditions.push(or(ilike(accounts.firstName, pattern), ilike(accounts.lastName, pattern), ilike(accounts.email, pattern), ilike(sql`${accounts.firstName} || ' ' || ${accounts.lastName}`, pattern))!);
  }
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        customerId: customers.id,
        accountId: accounts.id,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        email: accounts.email,
        accountStatus: accounts.status,
        platformType: customers.platformType,
        apiKeyLast4: customers.apiKeyLast4,
        currentWalletAmount: customers.currentWalletAmount,
        keyValid: customerHealth.keyValid,
        canTrade: customerHealth.canTrade,
        canWithdraw: customerHealth.canWithdraw,
        ipBound: customerHealth.ipBound,
        positionMode: customerHealth.positionMode,
        checkedAt: customerHealth.checkedAt,
        lastSyncAt: customerHealth.lastSyncAt,
        lastError: customerHealth.lastError,
        problem,
      })
      .from(customers)
      .innerJoin(accounts, eq(accounts.id, customers.accountId))
      .leftJoin(customerHealth, eq(customerHealth.customerId, customers.id))
      .where(where)
      // Problems first, then the longest unchecked.
      .orderBy(sql`${problem} desc`, sql`${customerHealth.checkedAt} asc nulls first`, customers.id)
      .limit(filter.pageSize)
      .offset(offsetOf(filter)),
    db
      .select({ total: count() })
      .from(customers)
      .innerJoin(accounts, eq(accounts.id, customers.accountId))
      .leftJoin(customerHealth, eq(customerHealth.customerId, customers.id))
      .where(where),
  ]);
  return {
    total: totals?.total ?? 0,
    rows: rows.map(({ apiKeyLast4, currentWalletAmount, checkedAt, lastSyncAt, positionMode, ...row }) => ({
      ...row,
      apiKey: maskKey(apiKeyLast4),
      currentWalletAmount: Number(currentWalletAmount),
      positionMode: positionMode === 'oneway' || positionMode === 'hedge' ? positionMode : null,
      checkedAt: checkedAt?.toISOString() ?? null,
      lastSyncAt: lastSyncAt?.toISOString() ?? null,
      problem: Boolean(row.problem),
    })),
  };
}
