import type { Deps } from '../../deps';
import { decoyHash, verifyPassword } from '../../lib/passwords';
import { consumeNewDeviceCode, findNewDeviceCode, offerNewDeviceCode } from './new-device-codes';
import { beginPasswordAttempt, forgetWrongPasswords, SignInCapped, type SignInAttempt } from './sign-in-throttle';

type PasswordCheckDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'mailer' | 'log'>;

/**
 * One password check under the sign-in throttle (the sign-in, and the current password asked when
 * changing it): counted before it is made, so parallel guesses never get past the policy. Past the
 * hourly cap an unfamiliar address must send a valid code for new devices too, and a capped
 * attempt without one mails the account such a code (at most one every 10 minutes), after the
 * answer. Wrong password, wrong code or both answer alike: false.
 */
export async function checkPassword(
  deps: PasswordCheckDeps,
  attempt: SignInAttempt & { password: string },
  account: { id: number; email: string; passwordHash: string } | undefined,
): Promise<boolean> {
  let ticket;
  try {
    ticket = await beginPasswordAttempt(deps.db, deps.clock, attempt);
  } catch (error) {
    if (error instanceof SignInCapped && account) {
      offerNewDeviceCode(deps, account).catch((failure: unknown) => deps.log.error({ err: failure }, 'code for new devices not mailed'));
    }
    throw error;
  }
  const passwordOk = await verifyPassword(account?.passwordHash ?? (await decoyHash()), attempt.password);
  // Looked up whatever the password (and for unknown emails too), so the timing does not tell which part was wrong.
  const deviceCodeId = ticket.needsDeviceCode && attempt.deviceCode ? await findNewDeviceCode(deps, account?.id ?? 0, attempt.deviceCode) : undefined;
  if (!account || !passwordOk) return false;
  if (ticket.needsDeviceCode && (deviceCodeId === undefined || !(await consumeNewDeviceCode(deps, deviceCodeId)))) return false;
  await forgetWrongPasswords(deps.db, ticket);
  return true;
}
