import type { FastifyInstance } from 'fastify';
import { switchRoutes } from '../../../contract/api/switches';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { findAccountById } from '../accounts/repository';
import { consumeCode, issueCode } from '../auth/codes';
import { clientIp, enforceLimits } from '../auth/limits';
import { customerExists, pauseStateOf, setPause, strategyExists } from './repository';

/**
 * Kill switches: staff read them, admins pause and resume a strategy or a customer's copying at once,
 * and the platform with the 6-digit code mailed to them (the same one-time codes as the sign-in, bound
 * to the address that asked, 10 minutes, 5 tries). The skip itself happens where alerts become
 * executions (SQL functions receive_alert and enqueue_order, server/db/functions/alert-intake.sql).
 */
export function registerSwitchRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock } = deps;

  const strategyTarget = async (id: string) => {
    if (!(await strategyExists(db, id))) throw notFound(`Strategy ${id} does not exist.`);
    return { scope: 'strategy' as const, strategyId: id };
  };
  const customerTarget = async (id: number) => {
    if (!(await customerExists(db, id))) throw notFound(messages.notFound('Customer'));
    return { scope: 'customer' as const, customerId: id };
  };

  registerRoute(app, switchRoutes.strategyState, async ({ params }) => pauseStateOf(db, await strategyTarget(params.id)));
  registerRoute(app, switchRoutes.setStrategy, async ({ params, body, auth }) =>
    setPause(db, await strategyTarget(params.id), body.paused, auth.accountId, clock.now()),
  );
  registerRoute(app, switchRoutes.customerState, async ({ params }) => pauseStateOf(db, await customerTarget(params.id)));
  registerRoute(app, switchRoutes.setCustomer, async ({ params, body, auth }) =>
    setPause(db, await customerTarget(params.id), body.paused, auth.accountId, clock.now()),
  );

  registerRoute(app, switchRoutes.platformState, async () => pauseStateOf(db, { scope: 'platform' }));
  registerRoute(app, switchRoutes.platformCode, async ({ auth, request }) => {
    const account = await findAccountById(db, auth.accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    const code = await issueCode(deps, account.id, 'kill_switch', { throttle: true, address: clientIp(request) });
    await deps.mailer.send({
      to: account.email,
      subject: 'Your platform pause confirmation code',
      text: `Your platform pause confirmation code is ${code}\n\nIt expires in 10 minutes. If you did not ask for it, someone is using your session: sign out everywhere and change your password.\n`,
    });
    return { success: true as const };
  });
  registerRoute(app, switchRoutes.setPlatform, async ({ body, auth, request }) => {
    const address = clientIp(request);
    await enforceLimits(deps.rateLimiter, [['otpPerIp', address], ['otpPerAccount', `kill-switch:${auth.accountId}:${address}`]]);
    await consumeCode(deps, auth.accountId, 'kill_switch', body.code, address);
    return setPause(db, { scope: 'platform' }, body.paused, auth.accountId, clock.now());
  });
}
