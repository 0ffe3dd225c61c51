import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Agent, AgentUpdateBody } from '../../../contract/api/agent';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import type { Deps } from '../../deps';
import { accounts, agents } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import { logStaffAction } from '../../lib/staff-log';
import { capitalizeWords, findAccountById, isUniqueViolation } from '../accounts/repository';
import { deleteAccount } from '../accounts/service';
import { changingSessions, revokeAccountSessions } from '../auth/sessions';
import type { AuthContext } from '../../http/route';
import { countryExists } from '../countries/repository';
import { findAgent } from './repository';

type ServiceDeps = Pick<Deps, 'db' | 'clock' | 'sessionCache'>;

export const agentNotFound = () => notFound(messages.notFound('Agent'));

/** The agent record of a signed-in agent account. */
export async function ownAgentOf(db: DbOrTx, accountId: number): Promise<Agent> {
  const agent = await findAgent(db, { accountId });
  if (!agent) throw agentNotFound();
  return agent;
}

/** Makes an account created with accountType 2 an agent (step two of the add-agent form). */
export async function createAgent(deps: ServiceDeps, actorAccountId: number, accountId: number): Promise<number> {
  // The account's sessions now resolve with its agent id.
  return changingSessions(deps, async (tx) => {
    const account = await findAccountById(tx, accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    if (account.accountType !== AccountType.Agent) {
      throw badRequest('Invalid account type: create the account with accountType 2 (Agent) before making it an agent');
    }
    let agentId: number;
    try {
      const [row] = await tx.insert(agents).values({ accountId, datetimeInserted: deps.clock.now() }).returning({ id: agents.id });
      agentId = row!.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('This account is already an agent');
      throw error;
    }
    await logStaffAction(tx, { actorAccountId, action: 'create', targetType: 'agent', targetId: agentId, details: { accountId } });
    return agentId;
  });
}

/** agents.id of a signed-in agent account (its own lists are forced to it), resolved with its session; 404 like `ownAgentOf`. */
export function ownAgentIdOf(auth: Pick<AuthContext, 'agentId'>): number {
  if (auth.agentId === null) throw agentNotFound();
  return auth.agentId;
}

/** PUT /api/agent: personal fields and status (2 Blocked ends the agent's sessions). `passphrase` is ignored. */
export async function updateAgent(deps: ServiceDeps, actorAccountId: number, body: AgentUpdateBody): Promise<void> {
  await changingSessions(deps, async (tx) => {
    const agent = await findAgent(tx, { agentId: body.agentID });
    if (!agent) throw agentNotFound();
    if (!(await countryExists(tx, body.countryId))) throw badRequest('countryId: no country with this id');
    const [taken] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(sql`lower(${accounts.email}) = lower(${body.email})`, isNull(accounts.deletedAt), ne(accounts.id, agent.account.id)))
      .limit(1);
    if (taken) throw conflict(messages.emailTaken);
    const next = {
      firstName: capitalizeWords(body.firstName),
      lastName: capitalizeWords(body.lastName),
      email: body.email,
      age: body.age,
      phone: body.phone,
      countryId: body.countryId,
      gender: body.gender,
      status: body.status,
    };
    const previous = agent.account;
    const changed = Object.entries({
      firstName: previous.firstName !== next.firstName,
      lastName: previous.lastName !== next.lastName,
      email: previous.email !== next.email,
      age: previous.age !== next.age,
      phone: previous.phone !== next.phone,
      countryId: previous.country?.id !== next.countryId,
      gender: previous.gender !== next.gender,
      status: previous.status !== next.status,
    })
      .filter(([, differs]) => differs)
      .map(([field]) => field);
    try {
      await tx.update(accounts).set({ ...next, datetimeUpdated: deps.clock.now() }).where(eq(accounts.id, previous.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(messages.emailTaken);
      throw error;
    }
    if (next.status === AccountStatus.Blocked && previous.status !== AccountStatus.Blocked) {
      await revokeAccountSessions(tx, deps.clock, previous.id);
    }
    await logStaffAction(tx, {
      actorAccountId,
      action: 'update',
      targetType: 'agent',
      targetId: agent.id,
      details: { changed, ...(changed.includes('status') ? { statusFrom: previous.status, statusTo: next.status } : {}) },
    });
  });
}

/**
 * Soft-deletes the agent's account; Registration IDs keep their history. Customers are never left
 * without an agent: with `moveCustomersTo` they move to that agent in the same transaction (audited),
 * otherwise an agent who still has customers is refused (409, saying how many).
 */
export async function deleteAgent(deps: ServiceDeps, actorAccountId: number, agentId: number, moveCustomersTo?: number): Promise<void> {
  const agent = await findAgent(deps.db, { agentId });
  if (!agent) throw agentNotFound();
  const move = moveCustomersTo === undefined ? undefined : (tx: DbOrTx) => moveCustomers(tx, actorAccountId, agentId, moveCustomersTo);
  await deleteAccount(deps, actorAccountId, agent.account.id, move);
}

/** Moves every customer (not deleted) of one agent to another, active agent. */
async function moveCustomers(tx: DbOrTx, actorAccountId: number, fromAgentId: number, toAgentId: number): Promise<void> {
  if (toAgentId === fromAgentId) throw badRequest(messages.moveToSameAgent);
  const target = await findAgent(tx, { agentId: toAgentId });
  if (!target || target.account.status !== AccountStatus.Active) throw badRequest(`moveCustomersTo: ${messages.notFound('Active agent')}`);
  const moved = await tx.execute(sql`
    update customers c set agent_id = ${toAgentId}
    from accounts a where a.id = c.account_id and a.deleted_at is null and c.agent_id = ${fromAgentId}`);
  await logStaffAction(tx, {
    actorAccountId,
    action: 'customers.move',
    targetType: 'agent',
    targetId: fromAgentId,
    details: { toAgentId, customers: moved.rowCount ?? 0 },
  });
}
