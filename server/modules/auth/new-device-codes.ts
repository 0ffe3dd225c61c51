import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { oneTimeCodes } from '../../db/schema/index';
import type { Mailer } from '../../lib/mailer';
import { humanCode } from '../../lib/tokens';
import { hashCode, type CodeDeps } from './codes';

/**
 * Codes for new devices: while strangers' failures hold an account at its hourly cap, an address
 * the account has not signed in from may still try a password when it sends one of these along.
 * They are mailed to the account, so only its owner has them: 10 characters of a 31-letter
 * alphabet (about 50 bits, so each guess costs a slowed password attempt for nothing), usable from
 * any address for an hour, once, and never retired by a newer one.
 */
export const NEW_DEVICE_CODE_LENGTH = 10;
export const NEW_DEVICE_CODE_TTL_MS = 60 * 60 * 1000;
/** At most one mail per account in this time, whoever causes it. */
export const NEW_DEVICE_MAIL_INTERVAL_MS = 10 * 60 * 1000;

const PURPOSE = 'new_device';

/** What people type: any case, spaces and dashes ignored. */
export const normalizeDeviceCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * Mails the account a fresh code for new devices unless one was mailed within the last 10 minutes
 * (the owner then has that one). Answers whether a mail went out.
 */
export async function offerNewDeviceCode(deps: CodeDeps & { mailer: Mailer }, account: { id: number; email: string }): Promise<boolean> {
  const now = deps.clock.now();
  const code = humanCode(NEW_DEVICE_CODE_LENGTH);
  const issued = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`new-device-code:${account.id}`}, 0))`);
    const [recent] = await tx
      .select({ id: oneTimeCodes.id })
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.accountId, account.id), eq(oneTimeCodes.purpose, PURPOSE), gt(oneTimeCodes.createdAt, new Date(now.getTime() - NEW_DEVICE_MAIL_INTERVAL_MS))))
      .limit(1);
    if (recent) return false;
    await tx.insert(oneTimeCodes).values({
      accountId: account.id,
      purpose: PURPOSE,
      codeHash: hashCode(deps, account.id, PURPOSE, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + NEW_DEVICE_CODE_TTL_MS),
    });
    return true;
  });
  if (!issued) return false;
  await deps.mailer.send({
    to: account.email,
    subject: 'Your code for signing in from a new device',
    text:
      'There have been many failed sign-ins to your account from devices it has not been used on, so a password alone no longer signs in from a new device for now.\n\n' +
      `If you are signing in from a new device, enter this code with your password: ${code}\n\n` +
      'It works once, for one hour. If it was not you, ignore this mail: the code is of no use without your password.\n',
  });
  return true;
}

/** The id of a live, unused code for new devices of this account matching `code`, if any. */
export async function findNewDeviceCode(deps: CodeDeps, accountId: number, code: string): Promise<number | undefined> {
  const [row] = await deps.db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.accountId, accountId),
        eq(oneTimeCodes.purpose, PURPOSE),
        eq(oneTimeCodes.codeHash, hashCode(deps, accountId, PURPOSE, normalizeDeviceCode(code))),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, deps.clock.now()),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  return row?.id;
}

/** Uses the code up; false when a parallel sign-in used it first. */
export async function consumeNewDeviceCode(deps: CodeDeps, codeId: number): Promise<boolean> {
  const used = await deps.db
    .update(oneTimeCodes)
    .set({ consumedAt: deps.clock.now() })
    .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.consumedAt)))
    .returning({ id: oneTimeCodes.id });
  return used.length > 0;
}
