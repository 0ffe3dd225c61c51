import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { SESSION_DAYS } from '../../../contract/constants';
import type { AccountStatus, AccountType } from '../../../contract/enums';
import { INACTIVE_ACCOUNT_STATUSES } from '../../../contract/enums';
import type { DbOrTx, DbTransaction } from '../../db/client';
import { preparedPerHandle } from '../../db/prepared';
import type { Deps } from '../../deps';
import { accounts, agents, sessions } from '../../db/schema/index';
import { DAY_MS, type Clock } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/tokens';
import type { AuthContext } from '../../http/route';

/** Statuses that may not sign in (blocked, incomplete, rejected). */
export const isInactiveStatus = (status: number) => INACTIVE_ACCOUNT_STATUSES.includes(status as AccountStatus);

/** Opaque bearer tokens; only their SHA-256 is stored. */
export async function createSession(db: DbOrTx, clock: Clock, accountId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(clock.now().getTime() + SESSION_DAYS * DAY_MS);
  await db.insert(sessions).values({ accountId, tokenHash: sha256(token), createdAt: clock.now(), expiresAt });
  return { token, expiresAt };
}

/** The session of a token hash, if live, with its account (and agent): one prepared statement. */
const sessionQuery = preparedPerHandle((db) =>
  db
    .select({ sessionId: sessions.id, accountId: accounts.id, accountType: accounts.accountType, status: accounts.status, expiresAt: sessions.expiresAt, agentId: agents.id })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .leftJoin(agents, eq(agents.accountId, accounts.id))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder('now')), isNull(accounts.deletedAt)))
    .limit(1)
    .prepare('resolve_session'),
);

export type SessionDeps = Pick<Deps, 'db' | 'clock' | 'sessionCache'>;

/**
 * The caller of a bearer token, or null. Read from this process's session cache when it holds the
 * token (exact: see SessionCache), else from the database, then cached.
 */
export async function resolveSession(deps: SessionDeps, token: string): Promise<AuthContext | null> {
  const tokenHash = sha256(token);
  const now = deps.clock.now();
  const cached = deps.sessionCache.get(tokenHash, now.getTime());
  if (cached) return cached;
  const ticket = deps.sessionCache.readTicket();
  const [row] = await sessionQuery(deps.db).execute({ tokenHash, now });
  if (!row || isInactiveStatus(row.status)) return null;
  const auth: AuthContext = { sessionId: row.sessionId, accountId: row.accountId, accountType: row.accountType as AccountType, status: row.status as AccountStatus, agentId: row.agentId };
  deps.sessionCache.put(tokenHash, auth, row.expiresAt, ticket);
  return auth;
}

/**
 * The one way to write what ends or changes sessions (log-out, revocation, password, an account's
 * status, type or deletion): the transaction, then a wait until this process's session cache has
 * passed its commit. The triggers of migration session_change_notify tell every process.
 */
export async function changingSessions<T>(deps: Pick<Deps, 'db' | 'sessionCache'>, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction(work);
  await deps.sessionCache.settle();
  return result;
}

export async function revokeSession(db: DbOrTx, clock: Clock, sessionId: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: clock.now() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of an account (block, delete, password change), optionally keeping one. */
export async function revokeAccountSessions(db: DbOrTx, clock: Clock, accountId: number, keepSessionId?: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        keepSessionId === undefined ? sql`true` : ne(sessions.id, keepSessionId),
      ),
    );
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
