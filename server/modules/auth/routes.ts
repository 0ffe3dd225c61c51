import type { FastifyInstance } from 'fastify';
import { accountRoutes, LoginPortal } from '../../../contract/api/account';
import { AccountStatus, AccountType, INACTIVE_ACCOUNT_STATUSES } from '../../../contract/enums';
import { server as messages, ui } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound, unauthorized } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { findAccountByEmail, findAccountById, findAccountWithPassword } from '../accounts/repository';
import { changeAccountStatus, setPassword } from '../accounts/service';
import { consumeCode, hasRecentCode, issueCode } from './codes';
import { sendResetMail } from './password-reset';
import { accountOfResetTicket, resetTicketOf } from './reset-ticket';
import { checkPassword } from './password-check';
import { rememberSignInAddress } from './sign-in-throttle';
import { clientIp, enforceLimits } from './limits';
import { assertCodeUsable, register } from './registration';
import { changingSessions, createSession, revokeSession } from './sessions';

const isInactive = (status: number) => INACTIVE_ACCOUNT_STATUSES.includes(status as AccountStatus);

export function registerAuthRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock, mailer, rateLimiter } = deps;

  const mailCode = (to: string, subject: string, code: string, purpose: string) =>
    mailer.send({ to, subject, text: `Your ${purpose} code is ${code}\n\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.\n` });

  registerRoute(app, accountRoutes.login, async ({ body, request }) => {
    const address = clientIp(request);
    await enforceLimits(rateLimiter, [['loginPerIp', address]]);
    const account = await findAccountByEmail(db, body.email);
    const attempt = { email: body.email, address, accountId: account?.id, deviceCode: body.deviceCode, password: body.password };
    if (!(await checkPassword(deps, attempt, account)) || !account) throw unauthorized(messages.invalidCredentials);
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    // /admin/login: a customer is turned away before a code is mailed.
    if (body.portal === LoginPortal.Staff && account.accountType === AccountType.Customer) throw forbidden(ui.access.adminsOnly);
    const code = await issueCode(deps, account.id, 'login', { throttle: false, address });
    await mailCode(account.email, 'Your login verification code', code, 'login verification');
    return { requires2FA: true, accountId: account.id, accountType: account.accountType, email: account.email };
  });

  registerRoute(app, accountRoutes.requestVerification, async ({ body, request }) => {
    const address = clientIp(request);
    await enforceLimits(rateLimiter, [['otpPerIp', address], ['otpPerAccount', `${body.accountId}:${address}`]]);
    const account = await findAccountById(db, body.accountId);
    // Only after a password check from this address: the code is a second factor, never a way in on its own.
    if (!account || account.email.toLowerCase() !== body.email || !(await hasRecentCode(deps, account.id, 'login', address))) {
      throw badRequest('Sign in with your email and password first; the code is sent after that');
    }
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    const code = await issueCode(deps, account.id, 'login', { throttle: true, address });
    await mailCode(account.email, 'Your login verification code', code, 'login verification');
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.verifyEmail, async ({ body, request }) => {
    const address = clientIp(request);
    await enforceLimits(rateLimiter, [['otpPerIp', address], ['otpPerAccount', `${body.accountId}:${address}`]]);
    const account = await findAccountById(db, body.accountId);
    if (!account) throw badRequest(messages.invalidCode);
    await consumeCode(deps, account.id, 'login', body.code, address);
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    await rememberSignInAddress(db, clock, account.id, address);
    const session = await createSession(db, clock, account.id);
    return {
      accessToken: { value: session.token, expiresAt: session.expiresAt.toISOString() },
      accountId: account.id,
      accountType: account.accountType,
    };
  });

  registerRoute(app, accountRoutes.logout, async ({ auth }) => {
    await changingSessions(deps, (tx) => revokeSession(tx, clock, auth.sessionId));
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.forgotPassword, async ({ body, request }) => {
    const address = clientIp(request);
    // Counted per email and requesting address: strangers' requests never use up the owner's.
    await enforceLimits(rateLimiter, [['forgotPerIp', address], ['forgotPerEmailAndIp', `${body.email}:${address}`]]);
    const account = await findAccountByEmail(db, body.email);
    const known = account && !isInactive(account.status) ? account : undefined;
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

  registerRoute(app, accountRoutes.changeStatus, async ({ params, body, auth }) => changeAccountStatus(deps, auth.accountId, params.accountId, body.status));

  registerRoute(app, accountRoutes.verifyRegistrationId, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['registrationIdPerIp', clientIp(request)]]);
    await assertCodeUsable(db, clock.now(), body.registrationId);
    return { registrationId: body.registrationId.trim(), valid: true as const };
  });

  registerRoute(app, accountRoutes.register, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['registerPerIp', clientIp(request)]]);
    return register(deps, body);
  });
}
