import type { FastifyInstance, FastifyRequest } from 'fastify';
import { switchRoutes } from '../../../contract/api/switches';
import { AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { findAccountById } from '../accounts/repository';
import { consumeCode, issueCode } from '../auth/codes';
import { clientIp, enforceLimits } from '../auth/limits';
import { closeAll, lastCloseAll } from './close-all';
import { customerExists, pauseStateOf, setPause, strategyExists } from './repository';

/**
 * Kill switches: staff read them, admins pause, resume and close all of a strategy or a customer's
 * copying at once, and of the platform with the 6-digit code mailed to them (the same one-time codes as the sign-in, bound
 * to the address that asked, 10 minutes, 5 tries). The skip itself happens where alerts become
 * executions (SQL functions receive_alert and enqueue_order, server/db/functions/alert-intake.sql).
 */
export function registerSwitchRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock } = deps;

  const strategyTarget = async (id: string) => {
    if (!(await strategyExists(db, id))) throw notFound(`Strategy ${id} does not exist.`);
    return { scope: 'strategy' as const, strategyId: id };
  };
  /** A customer reads only their own switch: anyone else's answers the same 404 as an unknown id. */
  const customerTarget = async (id: number, auth?: { accountId: number; accountType: number }) => {
    const ownerOnly = auth?.accountType === AccountType.Customer ? auth.accountId : undefined;
    if (!(await customerExists(db, id, ownerOnly))) throw notFound(messages.notFound('Customer'));
    return { scope: 'customer' as const, customerId: id };
  };

  registerRoute(app, switchRoutes.strategyState, async ({ params }) => pauseStateOf(db, await strategyTarget(params.id), clock.now()));
  registerRoute(app, switchRoutes.setStrategy, async ({ params, body, auth }) =>
    setPause(db, await strategyTarget(params.id), body.paused, auth.accountId, clock.now()),
  );
  registerRoute(app, switchRoutes.customerState, async ({ params, auth }) => pauseStateOf(db, await customerTarget(params.id, auth), clock.now()));
  registerRoute(app, switchRoutes.setCustomer, async ({ params, body, auth }) =>
    setPause(db, await customerTarget(params.id), body.paused, auth.accountId, clock.now()),
  );

  registerRoute(app, switchRoutes.strategyCloseAllState, async ({ params }) => ({ last: await lastCloseAll(db, await strategyTarget(params.id)) }));
  registerRoute(app, switchRoutes.closeAllStrategy, async ({ params, auth }) => closeAll(db, await strategyTarget(params.id), auth.accountId, clock.now()));
  registerRoute(app, switchRoutes.customerCloseAllState, async ({ params }) => ({ last: await lastCloseAll(db, await customerTarget(params.id)) }));
  registerRoute(app, switchRoutes.closeAllCustomer, async ({ params, auth }) => closeAll(db, await customerTarget(params.id), auth.accountId, clock.now()));

  registerRoute(app, switchRoutes.platformState, async () => pauseStateOf(db, { scope: 'platform' }, clock.now()));
  registerRoute(app, switchRoutes.platformCloseAllState, async () => ({ last: await lastCloseAll(db, { scope: 'platform' }) }));
  registerRoute(app, switchRoutes.platformCode, async ({ auth, request }) => {
    const account = await findAccountById(db, auth.accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    const code = await issueCode(deps, account.id, 'kill_switch', { throttle: true, address: clientIp(request) });
    await deps.mailer.send({
      to: account.email,
      subject: 'Your platform kill switch confirmation code',
      text: `Your code to confirm pausing, resuming or closing all of the platform is ${code}\n\nIt expires in 10 minutes. If you did not ask for it, someone is using your session: sign out everywhere and change your password.\n`,
    });
    return { success: true as const };
  });
  /** A platform-wide switch is confirmed with the mailed code, under the sign-in's limits on tries. */
  const confirmPlatformSwitch = async (accountId: number, code: string, request: FastifyRequest) => {
    const address = clientIp(request);
    await enforceLimits(deps.rateLimiter, [['otpPerIp', address], ['otpPerAccount', `kill-switch:${accountId}:${address}`]]);
    await consumeCode(deps, accountId, 'kill_switch', code, address);
  };
  registerRoute(app, switchRoutes.setPlatform, async ({ body, auth, request }) => {
    await confirmPlatformSwitch(auth.accountId, body.code, request);
    return setPause(db, { scope: 'platform' }, body.paused, auth.accountId, clock.now());
  });
  registerRoute(app, switchRoutes.closeAllPlatform, async ({ body, auth, request }) => {
    await confirmPlatformSwitch(auth.accountId, body.code, request);
    return closeAll(db, { scope: 'platform' }, auth.accountId, clock.now());
  });
}
