import { and, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { registerBody } from '../../../contract/api/account';
import { AccountStatus, AccountType, RegistrationIdStatus } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import type { DbOrTx, DbTransaction } from '../../db/client';
import { accounts, agents, pendingRegistrations, registrationIds } from '../../db/schema/index';
import { AppError, notFound } from '../../http/errors';
import { hashPassword } from '../../lib/passwords';
import { insertAccount } from '../accounts/repository';
import { expiryCutoff, normalizeCode, registrationStatusOf } from '../registration-ids/status';

/** How long a sign-up may sit between the account form and the exchange connect step. */
export const PENDING_REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Throws the 404 that tells the person why their code does not work. */
export async function assertCodeUsable(db: DbOrTx, now: Date, rawCode: string): Promise<{ id: number; agentId: number }> {
  const [row] = await db
    .select({ id: registrationIds.id, agentId: registrationIds.agentId, usedAt: registrationIds.usedAt, datetimeInserted: registrationIds.datetimeInserted, agentDeletedAt: accounts.deletedAt, agentStatus: accounts.status })
    .from(registrationIds)
    .innerJoin(agents, eq(agents.id, registrationIds.agentId))
    .innerJoin(accounts, eq(accounts.id, agents.accountId))
    .where(eq(registrationIds.code, normalizeCode(rawCode)))
    .limit(1);
  // A code of a deleted or blocked agent no longer admits anyone.
  if (!row || row.agentDeletedAt !== null || row.agentStatus !== AccountStatus.Active) throw notFound(messages.registrationIdInvalid);
  const status = registrationStatusOf(row, now);
  if (status === RegistrationIdStatus.Registered) throw notFound(messages.registrationIdUsed);
  if (status === RegistrationIdStatus.Expired) throw notFound(messages.registrationIdExpired);
  return { id: row.id, agentId: row.agentId };
}

/**
 * Creates the Incomplete customer account and consumes the registration ID in one transaction. The
 * conditional UPDATE is the arbiter: of two sign-ups racing on one code exactly one commits.
 *
 * An email that already has an account is answered exactly like a free one (same answer, same
 * password-hashing time, the code used up alike): the sign-up goes on without an account, and only
 * the exchange's callback, after the customer authorised the connection, says the email is taken.
 * So a Registration ID tests one email at most, and tells nothing about it before that step.
 */
export async function register(deps: Pick<Deps, 'db' | 'clock'>, input: z.infer<typeof registerBody>): Promise<{ tempAccountId: string }> {
  const now = deps.clock.now();
  await assertCodeUsable(deps.db, now, input.registrationId);
  return deps.db.transaction(async (tx) => {
    const accountId = await newCustomerAccount(tx, input);
    const [consumed] = await tx
      .update(registrationIds)
      .set({ usedAt: now, usedByAccountId: accountId })
      .where(and(eq(registrationIds.code, normalizeCode(input.registrationId)), isNull(registrationIds.usedAt), gt(registrationIds.datetimeInserted, expiryCutoff(now))))
      .returning({ id: registrationIds.id });
    if (!consumed) {
      // Lost the race (or the code expired meanwhile): say why, and roll the account back.
      await assertCodeUsable(tx, now, input.registrationId);
      throw notFound(messages.registrationIdUsed);
    }
    const [pending] = await tx
      .insert(pendingRegistrations)
      .values({ accountId, registrationIdId: consumed.id, createdAt: now, expiresAt: new Date(now.getTime() + PENDING_REGISTRATION_TTL_MS) })
      .returning({ id: pendingRegistrations.id });
    return { tempAccountId: pending!.id };
  });
}

/** The new Incomplete customer's account id; null (after hashing the password all the same) when the email is taken. */
async function newCustomerAccount(tx: DbTransaction, input: z.infer<typeof registerBody>): Promise<number | null> {
  try {
    // A savepoint: a taken email leaves the outer transaction usable.
    return await tx.transaction((sp) => insertAccount(sp, { ...input, accountType: AccountType.Customer, status: AccountStatus.Incomplete }));
  } catch (error) {
    if (!(error instanceof AppError && error.message === messages.emailTaken)) throw error;
    await hashPassword(input.password);
    return null;
  }
}
