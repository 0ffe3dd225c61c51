import type { Secrets } from '../../lib/secrets';

/**
 * The `accountId` of the forgot-password answer: the account id sealed with the master key, or a
 * sealed "no account" for an unknown email. Both are random-looking base64url of one length, so
 * the answer does not tell which emails are registered; POST /api/security/password/verify opens it.
 */
const BINDING = 'password-reset-ticket';
const NO_ACCOUNT = 0;
/** Every id is sealed as 10 digits, so the ticket's length tells nothing either. */
const ID_DIGITS = 10;

export function resetTicketOf(secrets: Secrets, accountId: number | undefined): string {
  const plain = String(accountId ?? NO_ACCOUNT).padStart(ID_DIGITS, '0');
  return Buffer.from(secrets.encrypt(plain, BINDING), 'utf8').toString('base64url');
}

/** The account a ticket names; undefined for a decoy, a forged or a damaged ticket. */
export function accountOfResetTicket(secrets: Secrets, ticket: string): number | undefined {
  let plain: string;
  try {
    plain = secrets.decrypt(Buffer.from(ticket, 'base64url').toString('utf8'), BINDING);
  } catch {
    return undefined;
  }
  const accountId = Number(plain);
  return /^\d+$/.test(plain) && accountId !== NO_ACCOUNT && Number.isSafeInteger(accountId) ? accountId : undefined;
}
