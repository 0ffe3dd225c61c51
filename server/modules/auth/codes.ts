import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import type { Deps } from '../../deps';
import { oneTimeCodes } from '../../db/schema/index';
import { AppError, badRequest, tooManyRequests } from '../../http/errors';
import { safeEqual, sixDigitCode } from '../../lib/tokens';

export type CodeDeps = Pick<Deps, 'clock' | 'secrets'> & { db: DbOrTx };

/** kill_switch: confirms pausing or resuming the whole platform (modules/switches). */
export type CodePurpose = 'login' | 'password_reset' | 'new_device' | 'kill_switch';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_INTERVAL_MS = 30 * 1000;

/**
 * What the database keeps of a code: an HMAC under a key derived from the master key. A copy of
 * the database alone cannot tell which of the million codes it is (codes stored as plain SHA-256
 * before this stopped matching when it landed; they lived 10 minutes).
 */
export function hashCode(deps: CodeDeps, accountId: number, purpose: CodePurpose, code: string): string {
  return deps.secrets.mac('one-time-code', `${accountId}:${purpose}:${code}`);
}

/**
 * Issues a fresh 6-digit code for one address and retires that address's previous ones. The code is
 * accepted from that address only (the address that passed the password check, or that asked for
 * the reset), so nobody elsewhere can guess it, use up its tries or replace it. With `throttle`, a
 * second code for the address within 30 s is refused (resend spam). Only its HMAC is stored.
 */
export async function issueCode(
  deps: CodeDeps,
  accountId: number,
  purpose: CodePurpose,
  options: { throttle: boolean; address: string },
): Promise<string> {
  const ofAddress = and(eq(oneTimeCodes.accountId, accountId), eq(oneTimeCodes.purpose, purpose), eq(oneTimeCodes.address, options.address));
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [latest] = await tx
      .select({ id: oneTimeCodes.id, createdAt: oneTimeCodes.createdAt })
      .from(oneTimeCodes)
      .where(ofAddress)
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(1)
      .for('update');
    if (options.throttle && latest && now.getTime() - latest.createdAt.getTime() < CODE_RESEND_INTERVAL_MS) {
      throw tooManyRequests(messages.codeResendThrottled);
    }
    await tx
      .update(oneTimeCodes)
      .set({ consumedAt: now })
      .where(and(ofAddress, isNull(oneTimeCodes.consumedAt)));
    const code = sixDigitCode();
    await tx.insert(oneTimeCodes).values({
      accountId,
      purpose,
      codeHash: hashCode(deps, accountId, purpose, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      address: options.address,
    });
    return code;
  });
}

/** True when a code of this purpose was issued to this address within its lifetime (a password check happened there). */
export async function hasRecentCode(deps: CodeDeps, accountId: number, purpose: CodePurpose, address: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.accountId, accountId),
        eq(oneTimeCodes.purpose, purpose),
        eq(oneTimeCodes.address, address),
        gt(oneTimeCodes.createdAt, new Date(deps.clock.now().getTime() - CODE_TTL_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Consumes this address's current code if it matches. Each wrong try counts; after five the code is
 * dead even for the right digits, and a new one must be requested. Codes of other addresses are not
 * there for this caller: refused as invalid, without spending a try.
 */
export async function consumeCode(deps: CodeDeps, accountId: number, purpose: CodePurpose, code: string, address: string): Promise<void> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.accountId, accountId), eq(oneTimeCodes.purpose, purpose), eq(oneTimeCodes.address, address), isNull(oneTimeCodes.consumedAt)))
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(1)
      .for('update');
    if (!current || current.expiresAt <= now) return 'invalid' as const;
    if (current.attempts >= CODE_MAX_ATTEMPTS) return 'exhausted' as const;
    if (!safeEqual(current.codeHash, hashCode(deps, accountId, purpose, code))) {
      await tx.update(oneTimeCodes).set({ attempts: current.attempts + 1 }).where(eq(oneTimeCodes.id, current.id));
      return current.attempts + 1 >= CODE_MAX_ATTEMPTS ? ('exhausted' as const) : ('invalid' as const);
    }
    await tx.update(oneTimeCodes).set({ consumedAt: now }).where(eq(oneTimeCodes.id, current.id));
    return 'ok' as const;
  });
  if (outcome === 'invalid') throw badRequest(messages.invalidCode);
  if (outcome === 'exhausted') throw new AppError(429, messages.tooManyCodeAttempts);
}
