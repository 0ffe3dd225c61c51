import type { FastifyInstance } from 'fastify';
import { registrationIdRoutes, type RegistrationIdItem } from '../../../contract/api/registrationId';
import { AccountType, RegistrationIdStatus } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { badRequest } from '../../http/errors';
import type { AuthContext } from '../../http/route';
import { registerRoute } from '../../http/route';
import { agentNotFound, ownAgentOf } from '../agents/service';
import { parseRegistrationIdFilter } from './filters';
import { registrationIdStatistics, searchRegistrationIds } from './repository';
import { createRegistrationId } from './service';

/** A pending code is a key to sign up under its agent: shown as its last four characters. */
function maskLiveCode(item: RegistrationIdItem): RegistrationIdItem {
  return item.status === RegistrationIdStatus.Pending ? { ...item, code: `********${item.code.slice(-4)}` } : item;
}

export function registerRegistrationIdRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, clock } = deps;

  /** agents.id of the calling agent; undefined for staff, who see every agent's codes. */
  const scopeOf = async (auth: AuthContext): Promise<number | undefined> => {
    if (auth.accountType !== AccountType.Agent) return undefined;
    return (await ownAgentOf(db, auth.accountId)).id;
  };

  registerRoute(app, registrationIdRoutes.search, async ({ auth, body }) => {
    const query = parseRegistrationIdFilter(body.filter);
    const own = await scopeOf(auth);
    if (own !== undefined) {
      // An agent naming another agent learns nothing: the same 404 as an unknown agent.
      if (query.agentId !== undefined && query.agentId !== own) throw agentNotFound();
      query.agentId = own;
    }
    if (auth.accountType !== AccountType.Employee) return searchRegistrationIds(db, clock.now(), query, body);
    // Employees see every agent's codes, but a live one only masked (README: Security, the role table's grey areas).
    const page = await searchRegistrationIds(db, clock.now(), { ...query, wholeCodeOnly: true }, body);
    return { ...page, data: page.data.map(maskLiveCode) };
  });

  registerRoute(app, registrationIdRoutes.statistics, async ({ auth }) => registrationIdStatistics(db, clock.now(), await scopeOf(auth)));

  registerRoute(app, registrationIdRoutes.createOwn, async ({ auth }) => {
    const agentId = await scopeOf(auth);
    if (agentId === undefined) throw agentNotFound();
    return createRegistrationId(deps, { actorAccountId: auth.accountId, agentId, byStaff: false });
  });

  registerRoute(app, registrationIdRoutes.createForAgent, async ({ auth, params, body }) => {
    if (body?.agentId !== undefined && body.agentId !== params.agentId) {
      throw badRequest(`${ui.registrationId.agentRequired}: the agentId in the body differs from the one in the path`);
    }
    return createRegistrationId(deps, { actorAccountId: auth.accountId, agentId: params.agentId, byStaff: true });
  });
}
