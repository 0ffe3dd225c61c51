import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { signInAddresses, signInFailures } from '../../db/schema/index';
import { DAY_MS, type Clock } from '../../lib/clock';
import { sha256 } from '../../lib/tokens';
import { ErrorStatus } from '../../../contract/route';
import { AppError } from '../../http/errors';

/**
 * Password guessing (README "Sign-in", after OWASP ASVS 5.0 section 6.3): one address that keeps
 * failing for one account is slowed down, never blocked; and the account takes at most
 * `unfamiliarFailuresPerHour` wrong passwords an hour from addresses it has not signed in from.
 * A stranger's failures therefore never stop the owner at an address the owner has used before.
 */
export const signInPolicy = {
  /** Wrong passwords one address may try for one account before it has to wait. */
  freeFailures: 5,
  /** Failures of one address count for this long. */
  addressWindowMs: 60 * 60 * 1000,
  /**
   * The wait after the free failures; it doubles with each further failure, up to `maxDelayMs`:
   * one address gets at most 5 + 10 + 2 = 17 guesses an hour.
   */
  firstDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  /** Wrong passwords per account and hour from every address it has never signed in from. */
  unfamiliarFailuresPerHour: 100,
  unfamiliarWindowMs: 60 * 60 * 1000,
  /** An address stays familiar this long after a completed sign-in (password and emailed code). */
  familiarForMs: 90 * DAY_MS,
} as const;

export const throttleMessages = {
  slowDown: (seconds: number) => `Too many wrong passwords for this account from your address. Please wait ${seconds} seconds and try again.`,
  capped:
    'Too many failed sign-ins for this account in the last hour. Please try again later, or sign in from a device you have signed in from before.',
};

/** The email as typed, hashed: unknown emails are throttled exactly like registered ones. */
const subjectOf = (email: string) => sha256(`sign-in:${email.trim().toLowerCase()}`);

export interface SignInAttempt {
  email: string;
  address: string;
  /** The account of that email, if there is one (its familiar addresses skip the hourly cap). */
  accountId: number | undefined;
}

/** 429 when this address must still wait, or when the hourly cap applies to it. Counts nothing. */
export async function assertMayTryPassword(db: DbOrTx, clock: Clock, attempt: SignInAttempt): Promise<void> {
  const now = clock.now().getTime();
  const subject = subjectOf(attempt.email);
  const [mine] = await db
    .select({ failures: count(), last: sql<Date | null>`max(${signInFailures.failedAt})`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))) })
    .from(signInFailures)
    .where(and(eq(signInFailures.subject, subject), eq(signInFailures.address, attempt.address), gt(signInFailures.failedAt, new Date(now - signInPolicy.addressWindowMs))));
  const failures = mine?.failures ?? 0;
  if (failures >= signInPolicy.freeFailures && mine?.last) {
    const delay = Math.min(signInPolicy.firstDelayMs * 2 ** (failures - signInPolicy.freeFailures), signInPolicy.maxDelayMs);
    const waitMs = mine.last.getTime() + delay - now;
    if (waitMs > 0) throw tooManyAttempts(throttleMessages.slowDown(Math.ceil(waitMs / 1000)), waitMs);
  }
  if (attempt.accountId !== undefined && (await isFamiliar(db, now, attempt.accountId, attempt.address))) return;
  const unfamiliar = await unfamiliarFailures(db, now, subject, attempt.accountId);
  if (unfamiliar >= signInPolicy.unfamiliarFailuresPerHour) throw tooManyAttempts(throttleMessages.capped, signInPolicy.unfamiliarWindowMs);
}

/** Records a wrong password (and forgets failures older than the longest window). */
export async function recordWrongPassword(db: DbOrTx, clock: Clock, attempt: SignInAttempt): Promise<void> {
  const now = clock.now();
  const subject = subjectOf(attempt.email);
  await db.delete(signInFailures).where(and(eq(signInFailures.subject, subject), lt(signInFailures.failedAt, new Date(now.getTime() - signInPolicy.unfamiliarWindowMs))));
  await db.insert(signInFailures).values({ subject, address: attempt.address, failedAt: now });
}

/** The right password: this address starts afresh. */
export async function forgetWrongPasswords(db: DbOrTx, attempt: SignInAttempt): Promise<void> {
  await db.delete(signInFailures).where(and(eq(signInFailures.subject, subjectOf(attempt.email)), eq(signInFailures.address, attempt.address)));
}

/** A completed sign-in (password and code) makes the address familiar to the account. */
export async function rememberSignInAddress(db: DbOrTx, clock: Clock, accountId: number, address: string): Promise<void> {
  const now = clock.now();
  await db
    .insert(signInAddresses)
    .values({ accountId, address, lastSignInAt: now })
    .onConflictDoUpdate({ target: [signInAddresses.accountId, signInAddresses.address], set: { lastSignInAt: now } });
}

async function isFamiliar(db: DbOrTx, now: number, accountId: number, address: string): Promise<boolean> {
  const [row] = await db
    .select({ at: signInAddresses.lastSignInAt })
    .from(signInAddresses)
    .where(and(eq(signInAddresses.accountId, accountId), eq(signInAddresses.address, address), gt(signInAddresses.lastSignInAt, new Date(now - signInPolicy.familiarForMs))))
    .orderBy(desc(signInAddresses.lastSignInAt))
    .limit(1);
  return row !== undefined;
}

/** Wrong passwords of the last hour from addresses the account has not signed in from lately. */
async function unfamiliarFailures(db: DbOrTx, now: number, subject: string, accountId: number | undefined): Promise<number> {
  const since = new Date(now - signInPolicy.unfamiliarWindowMs);
  const familiarSince = new Date(now - signInPolicy.familiarForMs);
  const [row] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.subject, subject),
        gt(signInFailures.failedAt, since),
        accountId === undefined
          ? undefined
          : sql`not exists (select 1 from ${signInAddresses} where ${signInAddresses.accountId} = ${accountId} and ${signInAddresses.address} = ${signInFailures.address} and ${signInAddresses.lastSignInAt} > ${familiarSince})`,
      ),
    );
  return row?.n ?? 0;
}

/** A 429 that says, in the Retry-After header too, when to try again. */
function tooManyAttempts(message: string, waitMs: number): AppError {
  return new AppError(ErrorStatus.TooManyRequests, message, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
}
