import { and, count, eq, isNull } from 'drizzle-orm';
import { APPROVAL_PROMISE_DAYS } from '../../../contract/constants';
import { AccountStatus, AccountType, accountStatusLabels } from '../../../contract/enums';
import { server as messages, validation } from '../../../contract/messages';
import type { Deps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { accounts, agents, customers } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import { hashPassword } from '../../lib/passwords';
import { logStaffAction } from '../../lib/staff-log';
import { changingSessions, revokeAccountSessions } from '../auth/sessions';
import { fixProfitShareAtApproval } from '../customers/profit-share';
import { findAccountById } from './repository';

/** Status 0 in PATCH /api/security/status means delete (spec 3, agent list). */
export const DELETE_STATUS = 0;

type StatusDeps = Pick<Deps, 'db' | 'clock' | 'mailer' | 'log' | 'sessionCache'>;

/**
 * Approve, reject, block, unblock or delete an account. Writes the staff action log, ends the
 * account's sessions when it can no longer sign in, and mails a customer on approval.
 */
export async function changeAccountStatus(deps: StatusDeps, actorAccountId: number, accountId: number, status: number): Promise<{ id: number; status: number }> {
  if (accountId === actorAccountId) throw badRequest('You cannot change the status of your own account');
  const target = await findAccountById(deps.db, accountId);
  if (!target) throw notFound(messages.notFound('Account'));
  if (status === DELETE_STATUS) {
    await deleteAccount(deps, actorAccountId, accountId);
    return { id: accountId, status: DELETE_STATUS };
  }

  const approvingCustomer = target.accountType === AccountType.Customer && status === AccountStatus.Active && target.status !== AccountStatus.Blocked;
  await changingSessions(deps, async (tx) => {
    if (approvingCustomer) {
      const [customer] = await tx.select({ group: customers.group }).from(customers).where(eq(customers.accountId, accountId)).limit(1);
      if (!customer || customer.group === null) throw badRequest(validation.selectGroupOrExclusive);
      await fixProfitShareAtApproval(tx, accountId);
    }
    await tx.update(accounts).set({ status, datetimeUpdated: deps.clock.now() }).where(eq(accounts.id, accountId));
    if (status !== AccountStatus.Active && status !== AccountStatus.Pending) {
      await revokeAccountSessions(tx, deps.clock, accountId);
    }
    await logStaffAction(tx, {
      actorAccountId,
      action: 'status_change',
      targetType: 'account',
      targetId: accountId,
      details: { from: target.status, to: status },
    });
  });

  if (approvingCustomer && target.status !== AccountStatus.Active) {
    await deps.mailer
      .send({
        to: target.email,
        subject: 'Your account has been approved',
        text: `Hello ${target.firstName},\n\nYour account is now ${accountStatusLabels[AccountStatus.Active]}. Trading on your connected exchange starts with the next signal of your group.\n\nWe promised an answer within ${APPROVAL_PROMISE_DAYS} days; thank you for waiting.\n`,
      })
      .catch((error: unknown) => deps.log.error({ err: error }, 'approval mail failed'));
  }
  return { id: accountId, status };
}

/**
 * Soft delete: the account disappears from every list and cannot sign in; its history stays. An
 * agent's account is deleted only once none of its customers is left with it (`before` may move them
 * in the same transaction): customers are never left without an agent.
 */
export async function deleteAccount(
  deps: Pick<Deps, 'db' | 'clock' | 'sessionCache'>,
  actorAccountId: number,
  accountId: number,
  before?: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  if (accountId === actorAccountId) throw badRequest('You cannot delete your own account');
  await changingSessions(deps, async (tx) => {
    await before?.(tx);
    const customersLeft = await liveCustomersOfAgentAccount(tx, accountId);
    if (customersLeft > 0) throw conflict(messages.agentHasCustomers(customersLeft));
    const [row] = await tx
      .update(accounts)
      .set({ deletedAt: deps.clock.now(), datetimeUpdated: deps.clock.now() })
      .where(and(eq(accounts.id, accountId), isNull(accounts.deletedAt)))
      .returning({ id: accounts.id });
    if (!row) throw notFound(messages.notFound('Account'));
    await revokeAccountSessions(tx, deps.clock, accountId);
    await logStaffAction(tx, { actorAccountId, action: 'delete', targetType: 'account', targetId: accountId });
  });
}

/** Customers (not deleted) whose agent is the agent of this account; 0 for any other account. */
async function liveCustomersOfAgentAccount(tx: DbOrTx, accountId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(customers)
    .innerJoin(agents, eq(agents.id, customers.agentId))
    .innerJoin(accounts, eq(accounts.id, customers.accountId))
    .where(and(eq(agents.accountId, accountId), isNull(accounts.deletedAt)));
  return row?.n ?? 0;
}

/** Sets a password and ends the account's other sessions. */
export async function setPassword(deps: Pick<Deps, 'db' | 'clock' | 'sessionCache'>, accountId: number, password: string, keepSessionId?: number): Promise<void> {
  const passwordHash = await hashPassword(password);
  await changingSessions(deps, async (tx) => {
    await tx.update(accounts).set({ passwordHash, datetimeUpdated: deps.clock.now() }).where(eq(accounts.id, accountId));
    await revokeAccountSessions(tx, deps.clock, accountId, keepSessionId);
  });
}
