import { and, count, eq, gt, sql } from 'drizzle-orm';
import { AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import { oneTimeCodes, signInAddresses } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { issueCode } from './codes';
import { isFamiliar, signInPolicy } from './sign-in-throttle';

/**
 * Reset codes mailed per account and hour to addresses it has not signed in from. Each is bound to
 * the address that asked for it (5 tries), so this bounds what a crowd of strangers can guess; the
 * owner at an address they have used is never counted against it.
 */
export const UNFAMILIAR_RESET_CODES_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

type ResetDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'mailer'>;
export interface ResetTarget {
  id: number;
  email: string;
  accountType: number;
}

/** Reset codes of the last hour sent to addresses the account is not familiar with. */
async function unfamiliarResetCodes(deps: Pick<ResetDeps, 'clock'> & { db: DbOrTx }, accountId: number): Promise<number> {
  const now = deps.clock.now().getTime();
  const [row] = await deps.db
    .select({ n: count() })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.accountId, accountId),
        eq(oneTimeCodes.purpose, 'password_reset'),
        gt(oneTimeCodes.createdAt, new Date(now - HOUR_MS)),
        sql`not exists (select 1 from ${signInAddresses} where ${signInAddresses.accountId} = ${accountId} and ${signInAddresses.address} = ${oneTimeCodes.address} and ${signInAddresses.lastSignInAt} > ${new Date(now - signInPolicy.familiarForMs)})`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * The mail a reset request leads to, if any: a code bound to the requesting address for staff and
 * agents, a pointer to their agent for customers. A second request from the address within 30 s
 * keeps the first code; past the hourly cap an unfamiliar address gets nothing. The caller's answer
 * is the same in every case.
 */
export async function sendResetMail(deps: ResetDeps, account: ResetTarget, address: string): Promise<void> {
  if (account.accountType === AccountType.Customer) {
    await deps.mailer.send({
      to: account.email,
      subject: 'Password reset',
      text: 'Someone asked to reset the password of your account. Customer passwords are reset by your agent: please contact them.\n',
    });
    return;
  }
  const familiar = await isFamiliar(deps.db, deps.clock.now().getTime(), account.id, address);
  // Counted and issued under one lock per account, so parallel requests cannot pass the cap together.
  const code = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reset-codes:${account.id}`}, 0))`);
    if (!familiar && (await unfamiliarResetCodes({ ...deps, db: tx }, account.id)) >= UNFAMILIAR_RESET_CODES_PER_HOUR) return undefined;
    try {
      return await issueCode({ ...deps, db: tx }, account.id, 'password_reset', { throttle: true, address });
    } catch (error) {
      if (error instanceof Error && error.message === messages.codeResendThrottled) return undefined;
      throw error;
    }
  });
  if (code === undefined) return;
  await deps.mailer.send({
    to: account.email,
    subject: 'Your password reset code',
    text: `Your password reset code is ${code}\n\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.\n`,
  });
}
