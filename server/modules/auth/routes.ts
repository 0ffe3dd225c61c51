import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '../../../contract/api/account';
import { AccountType, INACTIVE_ACCOUNT_STATUSES, type AccountStatus } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound, unauthorized } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { decoyHash, verifyPassword } from '../../lib/passwords';
import { logStaffAction } from '../../lib/staff-log';
import { sha256 } from '../../lib/tokens';
import { findAccountByEmail, findAccountById } from '../accounts/repository';
import { changeAccountStatus, setPassword } from '../accounts/service';
import { consumeCode, hasRecentCode, issueCode } from './codes';
import { clientIp, enforceLimits } from './limits';
import { assertCodeUsable, register } from './registration';
import { createSession, revokeSession } from './sessions';

const isInactive = (status: number) => INACTIVE_ACCOUNT_STATUSES.includes(status as AccountStatus);

export function registerAuthRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock, mailer, rateLimiter } = deps;

  const mailCode = (to: string, subject: string, code: string, purpose: string) =>
    mailer.send({ to, subject, text: `Your ${purpose} code is ${code}\n\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.\n` });

  registerRoute(app, accountRoutes.login, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['loginPerIp', clientIp(request)], ['loginPerAccount', body.email]]);
    const account = await findAccountByEmail(db, body.email);
    const passwordOk = await verifyPassword(account?.passwordHash ?? (await decoyHash()), body.password);
    if (!account || !passwordOk) throw unauthorized(messages.invalidCredentials);
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    const code = await issueCode(db, clock, account.id, 'login', { throttle: false });
    await mailCode(account.email, 'Your login verification code', code, 'login verification');
    return { requires2FA: true, accountId: account.id, accountType: account.accountType, email: account.email };
  });

  registerRoute(app, accountRoutes.requestVerification, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['otpPerIp', clientIp(request)], ['otpPerAccount', String(body.accountId)]]);
    const account = await findAccountById(db, body.accountId);
    // Only after a password check: the code is a second factor, never a way in on its own.
    if (!account || account.email.toLowerCase() !== body.email || !(await hasRecentCode(db, clock, account.id, 'login'))) {
      throw badRequest('Sign in with your email and password first; the code is sent after that');
    }
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    const code = await issueCode(db, clock, account.id, 'login', { throttle: true });
    await mailCode(account.email, 'Your login verification code', code, 'login verification');
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.verifyEmail, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['otpPerIp', clientIp(request)], ['otpPerAccount', String(body.accountId)]]);
    const account = await findAccountById(db, body.accountId);
    if (!account) throw badRequest(messages.invalidCode);
    await consumeCode(db, clock, account.id, 'login', body.code);
    if (isInactive(account.status)) throw forbidden(messages.inactive);
    const session = await createSession(db, clock, account.id);
    return {
      accessToken: { value: session.token, expiresAt: session.expiresAt.toISOString() },
      accountId: account.id,
      accountType: account.accountType,
    };
  });

  registerRoute(app, accountRoutes.logout, async ({ auth }) => {
    await revokeSession(db, clock, auth.sessionId);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.forgotPassword, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['forgotPerIp', clientIp(request)], ['forgotPerAccount', body.email]]);
    const account = await findAccountByEmail(db, body.email);
    // The answer has the same shape whether or not the email exists.
    if (!account || isInactive(account.status)) return { email: body.email, accountId: decoyAccountId(body.email) };
    if (account.accountType === AccountType.Customer) {
      await mailer.send({
        to: account.email,
        subject: 'Password reset',
        text: 'Someone asked to reset the password of your account. Customer passwords are reset by your agent: please contact them.\n',
      });
      return { email: body.email, accountId: account.id };
    }
    try {
      const code = await issueCode(db, clock, account.id, 'password_reset', { throttle: true });
      await mailCode(account.email, 'Your password reset code', code, 'password reset');
    } catch (error) {
      // A second request within 30 s keeps the first code; the answer does not change.
      if (!(error instanceof Error && error.message === messages.codeResendThrottled)) throw error;
    }
    return { email: body.email, accountId: account.id };
  });

  registerRoute(app, accountRoutes.verifyPassword, async ({ body, request }) => {
    await enforceLimits(rateLimiter, [['otpPerIp', clientIp(request)], ['otpPerAccount', String(body.accountId)]]);
    const account = await findAccountById(db, body.accountId);
    if (!account) throw badRequest(messages.invalidCode);
    await consumeCode(db, clock, account.id, 'password_reset', body.code);
    await setPassword(deps, account.id, body.password);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.resetOwnPassword, async ({ body, auth }) => {
    await setPassword(deps, auth.accountId, body.password, auth.sessionId);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.resetPasswordOf, async ({ params, body, auth }) => {
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

/** A stable stand-in id for unknown emails, so the answer does not reveal which emails exist. */
function decoyAccountId(email: string): number {
  return (parseInt(sha256(`decoy:${email.toLowerCase()}`).slice(0, 8), 16) % 900_000) + 100_000;
}
