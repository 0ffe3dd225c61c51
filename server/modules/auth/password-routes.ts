import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '../../../contract/api/account';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { findAccountByEmail, findAccountById, findAccountWithPassword } from '../accounts/repository';
import { setPassword } from '../accounts/service';
import { consumeCode } from './codes';
import { clientIp, enforceLimits } from './limits';
import { checkPassword } from './password-check';
import { sendResetMail } from './password-reset';
import { accountOfResetTicket, resetTicketOf } from './reset-ticket';
import { createSession, isInactiveStatus } from './sessions';
import { rememberSignInAddress } from './sign-in-throttle';

/**
 * Passwords: forgot (a code bound to the requesting address), set with that code, one's own
 * changed with the current one, and an admin setting someone else's.
 */
export function registerPasswordRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock, rateLimiter } = deps;

  registerRoute(app, accountRoutes.forgotPassword, async ({ body, request }) => {
    const address = clientIp(request);
    // Counted per email and requesting address: strangers' requests never use up the owner's.
    await enforceLimits(rateLimiter, [['forgotPerIp', address], ['forgotPerEmailAndIp', `${body.email}:${address}`]]);
    const account = await findAccountByEmail(db, body.email);
    const known = account && !isInactiveStatus(account.status) ? account : undefined;
    // The answer is alike for every email (an opaque accountId), and so is its timing: the code
    // and the mail are made after the answer.
    if (known) {
      sendResetMail(deps, known, address).catch((error: unknown) => request.log.error({ err: error }, 'password reset mail failed'));
    }
    return { email: body.email, accountId: resetTicketOf(deps.secrets, known?.id) };
  });

  registerRoute(app, accountRoutes.verifyPassword, async ({ body, request }) => {
    const accountId = accountOfResetTicket(deps.secrets, body.accountId);
    const address = clientIp(request);
    await enforceLimits(rateLimiter, [['otpPerIp', address], ['otpPerAccount', `reset:${accountId ?? 'none'}:${address}`]]);
    const account = accountId === undefined ? undefined : await findAccountById(db, accountId);
    if (!account) throw badRequest(messages.invalidCode);
    await consumeCode(deps, account.id, 'password_reset', body.code, address);
    await setPassword(deps, account.id, body.password);
    // The emailed code proved the mailbox here: this address is the owner's, like after a sign-in.
    await rememberSignInAddress(db, clock, account.id, address);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.resetOwnPassword, async ({ body, auth, request }) => {
    // Spec 6: the customer's password-change pencil is disabled while Pending; the server agrees.
    if (auth.accountType === AccountType.Customer && auth.status === AccountStatus.Pending) throw forbidden(messages.pendingPasswordChange);
    const account = await findAccountWithPassword(db, auth.accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    // Throttled like the sign-in (same email and address): a stolen token cannot guess it quickly either.
    const attempt = { email: account.email, address: clientIp(request), accountId: account.id, password: body.currentPassword };
    if (!(await checkPassword(deps, attempt, account))) throw badRequest(messages.currentPasswordWrong);
    // Every session ends, the one used included: a stolen token does not survive the change.
    await setPassword(deps, auth.accountId, body.password);
    const session = await createSession(db, clock, auth.accountId);
    return { success: true as const, accessToken: { value: session.token, expiresAt: session.expiresAt.toISOString() } };
  });

  registerRoute(app, accountRoutes.resetPasswordOf, async ({ params, body, auth }) => {
    // Only someone else's password goes without the current one.
    if (params.id === auth.accountId) throw badRequest(messages.ownPasswordNeedsCurrent);
    const target = await findAccountById(db, params.id);
    if (!target) throw notFound(messages.notFound('Account'));
    await setPassword(deps, target.id, body.password);
    await logStaffAction(db, { actorAccountId: auth.accountId, action: 'password_reset', targetType: 'account', targetId: target.id });
    return { success: true as const };
  });
}
