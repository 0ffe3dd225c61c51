import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { RegistrationIdItem } from '../../../contract/api/registrationId';
import { RegistrationIdStatus } from '../../../contract/enums';
import type { Paged } from '../../../contract/envelope';
import type { DbOrTx } from '../../db/client';
import { accounts, agents, registrationIds } from '../../db/schema/index';
import { likePattern, offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { normalizeCode, registrationStatusSql } from './status';

export interface RegistrationIdQuery {
  /** Only this agent's codes (agents.id). */
  agentId?: number | undefined;
  status?: RegistrationIdStatus | undefined;
  /** Part of the code, typed in any case. */
  code?: string | undefined;
  /** The code filter matches whole codes only (employees: a live code cannot be spelt out piece by piece). */
  wholeCodeOnly?: boolean;
}

function whereOf(now: Date, query: RegistrationIdQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.agentId !== undefined) conditions.push(eq(registrationIds.agentId, query.agentId));
  if (query.status !== undefined) conditions.push(sql`${registrationStatusSql(now)} = ${query.status}`);
  if (query.code) conditions.push(query.wholeCodeOnly ? eq(registrationIds.code, normalizeCode(query.code)) : ilike(registrationIds.code, likePattern(normalizeCode(query.code))));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** Registration IDs newest first, with their status as of `now` and their agent's name. */
export async function searchRegistrationIds(db: DbOrTx, now: Date, query: RegistrationIdQuery, page: PageWindow): Promise<Paged<RegistrationIdItem>> {
  const where = whereOf(now, query);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: registrationIds.id,
        code: registrationIds.code,
        status: registrationStatusSql(now).mapWith(Number),
        datetimeInserted: registrationIds.datetimeInserted,
        usedAt: registrationIds.usedAt,
        agentId: agents.id,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
      })
      .from(registrationIds)
      .innerJoin(agents, eq(agents.id, registrationIds.agentId))
      .innerJoin(accounts, eq(accounts.id, agents.accountId))
      .where(where)
      .orderBy(desc(registrationIds.datetimeInserted), desc(registrationIds.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(registrationIds).where(where),
  ]);
  return pageOf(
    rows.map((row) => ({
      id: row.id,
      code: row.code,
      status: row.status,
      datetimeInserted: row.datetimeInserted.toISOString(),
      datetimeRegistered: row.usedAt ? row.usedAt.toISOString() : null,
      agent: { id: row.agentId, firstName: row.firstName, lastName: row.lastName },
    })),
    total?.n ?? 0,
    page,
  );
}

/** Used, pending and expired counts as of `now`; of one agent when `agentId` is given. */
export async function registrationIdStatistics(db: DbOrTx, now: Date, agentId?: number): Promise<{ used: number; pending: number; expired: number }> {
  const status = registrationStatusSql(now);
  const [row] = await db
    .select({
      used: sql<number>`count(*) filter (where ${status} = ${RegistrationIdStatus.Registered})`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${status} = ${RegistrationIdStatus.Pending})`.mapWith(Number),
      expired: sql<number>`count(*) filter (where ${status} = ${RegistrationIdStatus.Expired})`.mapWith(Number),
    })
    .from(registrationIds)
    .where(agentId === undefined ? undefined : eq(registrationIds.agentId, agentId));
  return { used: row?.used ?? 0, pending: row?.pending ?? 0, expired: row?.expired ?? 0 };
}

export async function insertRegistrationId(
  db: DbOrTx,
  values: { code: string; agentId: number; createdByAccountId: number; datetimeInserted: Date },
): Promise<{ id: number }> {
  const [row] = await db.insert(registrationIds).values(values).returning({ id: registrationIds.id });
  return row!;
}
