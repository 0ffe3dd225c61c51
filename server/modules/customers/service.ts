import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { CredentialsBody, Customer, CustomerCreateBody } from '../../../contract/api/customer';
import { AccountType, CustomerGroup } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import { accounts, agents, customers } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { badRequest, conflict, notFound } from '../../http/errors';
import { logStaffAction } from '../../lib/staff-log';
import { deleteAccount } from '../accounts/service';
import { isUniqueViolation } from '../accounts/repository';
import { readEarningsSettings } from '../earnings/settings';
import { encryptCredentials } from '../../lib/credentials';
import { findCustomer } from './repository';

type ServiceDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'sessionCache'>;

/** accounts.id of a live customer; 404 otherwise. Locks the row when called in a transaction. */
async function customerAccountId(db: DbOrTx, customerId: number): Promise<number> {
  const [row] = await db
    .select({ accountId: customers.accountId })
    .from(customers)
    .innerJoin(accounts, and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt)))
    .where(eq(customers.id, customerId))
    .limit(1)
    .for('update', { of: customers });
  if (!row) throw notFound(messages.notFound('Customer'));
  return row.accountId;
}

async function assertAgent(db: DbOrTx, agentId: number): Promise<void> {
  const [row] = await db
    .select({ id: agents.id })
    .from(agents)
    .innerJoin(accounts, and(eq(accounts.id, agents.accountId), isNull(accounts.deletedAt), eq(accounts.accountType, AccountType.Agent)))
    .where(eq(agents.id, agentId))
    .limit(1);
  if (!row) throw badRequest(`agentId: no agent with id ${agentId}. Please select agent`);
}

/** Staff add-customer flow, second step: credentials, agent, group and profit share of a customer account. */
export async function createCustomer(deps: ServiceDeps, actorAccountId: number, body: CustomerCreateBody): Promise<Customer> {
  const customerId = await deps.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ accountType: accounts.accountType })
      .from(accounts)
      .where(and(eq(accounts.id, body.accountId), isNull(accounts.deletedAt)))
      .limit(1);
    if (!target) throw notFound(messages.notFound('Account'));
    if (target.accountType !== AccountType.Customer) throw badRequest('accountId: this account is not a customer account (accountType 1)');
    await assertAgent(tx, body.agentId);
    const profitSharePct = body.profitSharePct ?? (await readEarningsSettings(tx)).defaultProfitSharePct;
    const group = body.isExclusive ? CustomerGroup.Exclusive : (body.group ?? null);
    let id: number;
    try {
      const [row] = await tx
        .insert(customers)
        .values({
          accountId: body.accountId,
          agentId: body.agentId,
          group,
          applicationSource: body.applicationSource,
          platformType: body.platformType,
          exchangeAccountUuid: body.exchangeAccountUUID,
          ...encryptCredentials(deps.secrets, body.accountId, body),
          profitSharePct: String(profitSharePct),
          datetimeInserted: deps.clock.now(),
        })
        .returning({ id: customers.id });
      id = row!.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('This account already has a customer record');
      throw error;
    }
    await logStaffAction(tx, {
      actorAccountId,
      action: 'create',
      targetType: 'customer',
      targetId: id,
      details: { accountId: body.accountId, agentId: body.agentId, group, platformType: body.platformType, profitSharePct },
    });
    return id;
  });
  const created = await findCustomer(deps.db, customerId);
  if (!created) throw notFound(messages.notFound('Customer'));
  return created;
}

/** PUT /api/customer/:id/short: new exchange credentials, encrypted for this account. */
export async function replaceCredentials(deps: ServiceDeps, actorAccountId: number, customerId: number, body: CredentialsBody): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const accountId = await customerAccountId(tx, customerId);
    await tx
      .update(customers)
      .set({ platformType: body.platformType, ...encryptCredentials(deps.secrets, accountId, body) })
      .where(eq(customers.id, customerId));
    await logStaffAction(tx, {
      actorAccountId,
      action: 'credentials_change',
      targetType: 'customer',
      targetId: customerId,
      details: { platformType: body.platformType, hasPassphrase: body.passphrase !== null },
    });
  });
}

export async function changeGroup(deps: ServiceDeps, actorAccountId: number, customerId: number, group: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await customerAccountId(tx, customerId);
    const [before] = await tx.select({ group: customers.group }).from(customers).where(eq(customers.id, customerId));
    await tx.update(customers).set({ group }).where(eq(customers.id, customerId));
    await logStaffAction(tx, {
      actorAccountId,
      action: 'group_change',
      targetType: 'customer',
      targetId: customerId,
      details: { from: before?.group ?? null, to: group },
    });
  });
}

/** Moves every live customer of originalGroup to finalGroup; the log lists who moved. */
export async function changeGroupInBulk(deps: ServiceDeps, actorAccountId: number, originalGroup: number, finalGroup: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const live = tx
      .select({ id: customers.id })
      .from(customers)
      .innerJoin(accounts, and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt)))
      .where(eq(customers.group, originalGroup));
    const moved = await tx
      .update(customers)
      .set({ group: finalGroup })
      .where(and(eq(customers.group, originalGroup), inArray(customers.id, live)))
      .returning({ id: customers.id });
    await logStaffAction(tx, {
      actorAccountId,
      action: 'group_bulk_change',
      targetType: 'customer',
      targetId: `group:${originalGroup}`,
      details: { originalGroup, finalGroup, updatedCount: moved.length, customerIds: moved.map((m) => m.id).sort((a, b) => a - b) },
    });
    return moved.length;
  });
}

/** DELETE /api/customer/:id: the account is soft-deleted (sessions end, history stays). */
export async function removeCustomer(deps: ServiceDeps, actorAccountId: number, customerId: number): Promise<void> {
  const accountId = await customerAccountId(deps.db, customerId);
  await deleteAccount(deps, actorAccountId, accountId);
}
