import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { SESSION_DAYS } from '../../../contract/constants';
import type { AccountStatus, AccountType } from '../../../contract/enums';
import { INACTIVE_ACCOUNT_STATUSES } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { accounts, sessions } from '../../db/schema/index';
import { DAY_MS, type Clock } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/tokens';
import type { AuthContext } from '../../http/route';

/** Opaque bearer tokens; only their SHA-256 is stored. */
export async function createSession(db: DbOrTx, clock: Clock, accountId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(clock.now().getTime() + SESSION_DAYS * DAY_MS);
  await db.insert(sessions).values({ accountId, tokenHash: sha256(token), createdAt: clock.now(), expiresAt });
  return { token, expiresAt };
}

export async function resolveSession(db: DbOrTx, clock: Clock, token: string): Promise<AuthContext | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, accountId: accounts.id, accountType: accounts.accountType, status: accounts.status })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now()), isNull(accounts.deletedAt)))
    .limit(1);
  if (!row || INACTIVE_ACCOUNT_STATUSES.includes(row.status as AccountStatus)) return null;
  return { sessionId: row.sessionId, accountId: row.accountId, accountType: row.accountType as AccountType, status: row.status as AccountStatus };
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
