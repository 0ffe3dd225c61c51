import type { FastifyInstance } from 'fastify';
import { accountRoutes, LoginPortal } from '../../../contract/api/account';
import { AccountType } from '../../../contract/enums';
import { server as messages, ui } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { badRequest, forbidden, unauthorized } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { findAccountByEmail, findAccountById } from '../accounts/repository';
import { changeAccountStatus } from '../accounts/service';
import { consumeCode, hasRecentCode, issueCode } from './codes';
import { checkPassword } from './password-check';
import { registerPasswordRoutes } from './password-routes';
import { rememberSignInAddress } from './sign-in-throttle';
import { clientIp, enforceLimits } from './limits';
import { assertCodeUsable, register } from './registration';
import { changingSessions, createSession, isInactiveStatus, revokeSession } from './sessions';

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
    if (isInactiveStatus(account.status)) throw forbidden(messages.inactive);
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
    if (isInactiveStatus(account.status)) throw forbidden(messages.inactive);
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
    if (isInactiveStatus(account.status)) throw forbidden(messages.inactive);
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

  registerPasswordRoutes(app, deps);

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
