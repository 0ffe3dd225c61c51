import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { signInAddresses, signInFailures } from '../../db/schema/index';
import { DAY_MS, type Clock } from '../../lib/clock';
import { sha256 } from '../../lib/tokens';
import { server as messages } from '../../../contract/messages';
import { ErrorStatus } from '../../../contract/route';
import { AppError } from '../../http/errors';

/**
 * Password guessing (README "Sign-in", after OWASP ASVS 5.0 section 6.3): one address that keeps
 * failing for one account is slowed down, never blocked; and the account takes at most
 * `unfamiliarFailuresPerHour` wrong passwords an hour from addresses it has not signed in from.
 * Past that cap an unfamiliar address needs the code for new devices mailed to the account
 * (`new-device-codes.ts`) besides the password, so strangers never keep the owner out.
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
  capped: messages.signInCapped,
};

/** The 429 of the hourly cap: the caller may mail the owner a code for new devices. */
export class SignInCapped extends AppError {
  constructor() {
    super(ErrorStatus.TooManyRequests, throttleMessages.capped, { 'retry-after': String(signInPolicy.unfamiliarWindowMs / 1000) });
  }
}

/** The email as typed, hashed: unknown emails are throttled exactly like registered ones. */
const subjectOf = (email: string) => sha256(`sign-in:${email.trim().toLowerCase()}`);

export interface SignInAttempt {
  email: string;
  address: string;
  /** The account of that email, if there is one (its familiar addresses skip the hourly cap). */
  accountId: number | undefined;
  /** A code for new devices sent along with the password: lets an unfamiliar address past the cap. */
  deviceCode?: string | undefined;
}

/** A password check that may go ahead: it is already counted as a failure until it is settled. */
export interface PasswordTicket {
  attempt: SignInAttempt;
  failureId: number;
  /** The address was past the hourly cap: the password counts only with a valid code for new devices. */
  needsDeviceCode: boolean;
}

/**
 * Decides whether this password may be checked and counts it, as one step under a lock per email:
 * parallel attempts each see the ones before them, so no burst gets more checks than the policy
 * allows. The attempt is recorded as a failure before the password is checked (a crash in between
 * leaves it counted); `settlePasswordAttempt` removes it when the password was right.
 * Throws 429 (slowed down, or `SignInCapped`).
 */
export async function beginPasswordAttempt(db: Db, clock: Clock, attempt: SignInAttempt): Promise<PasswordTicket> {
  const now = clock.now().getTime();
  const subject = subjectOf(attempt.email);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${subject}`}, 0))`);
    await tx.delete(signInFailures).where(and(eq(signInFailures.subject, subject), lt(signInFailures.failedAt, new Date(now - signInPolicy.unfamiliarWindowMs))));
    await assertAddressMayTry(tx, now, subject, attempt.address);
    const familiar = attempt.accountId !== undefined && (await isFamiliar(tx, now, attempt.accountId, attempt.address));
    const capped = !familiar && (await unfamiliarFailures(tx, now, subject, attempt.accountId)) >= signInPolicy.unfamiliarFailuresPerHour;
    if (capped && !attempt.deviceCode) throw new SignInCapped();
    const [failure] = await tx.insert(signInFailures).values({ subject, address: attempt.address, failedAt: new Date(now) }).returning({ id: signInFailures.id });
    return { attempt, failureId: failure!.id, needsDeviceCode: capped };
  });
}

/** The right password: this address starts afresh (its failures, this attempt's included, are forgotten). */
export async function forgetWrongPasswords(db: DbOrTx, ticket: PasswordTicket): Promise<void> {
  await db.delete(signInFailures).where(and(eq(signInFailures.subject, subjectOf(ticket.attempt.email)), eq(signInFailures.address, ticket.attempt.address)));
}

/** A completed sign-in (password and code) makes the address familiar to the account. */
export async function rememberSignInAddress(db: DbOrTx, clock: Clock, accountId: number, address: string): Promise<void> {
  const now = clock.now();
  await db
    .insert(signInAddresses)
    .values({ accountId, address, lastSignInAt: now })
    .onConflictDoUpdate({ target: [signInAddresses.accountId, signInAddresses.address], set: { lastSignInAt: now } });
}

/** 429 while this address must still wait after its failures for this email. */
async function assertAddressMayTry(tx: DbOrTx, now: number, subject: string, address: string): Promise<void> {
  const [mine] = await tx
    .select({ failures: count(), last: sql<Date | null>`max(${signInFailures.failedAt})`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))) })
    .from(signInFailures)
    .where(and(eq(signInFailures.subject, subject), eq(signInFailures.address, address), gt(signInFailures.failedAt, new Date(now - signInPolicy.addressWindowMs))));
  const failures = mine?.failures ?? 0;
  if (failures < signInPolicy.freeFailures || !mine?.last) return;
  const delay = Math.min(signInPolicy.firstDelayMs * 2 ** (failures - signInPolicy.freeFailures), signInPolicy.maxDelayMs);
  const waitMs = mine.last.getTime() + delay - now;
  if (waitMs > 0) throw tooManyAttempts(throttleMessages.slowDown(Math.ceil(waitMs / 1000)), waitMs);
}

/** Whether the account completed a sign-in from this address within `familiarForMs` (or proved its mailbox there by a reset). */
export async function isFamiliar(db: DbOrTx, now: number, accountId: number, address: string): Promise<boolean> {
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
