import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { strategies } from '../../db/schema/index';
import type { Secrets } from '../../lib/secrets';
import { newToken, sha256 } from '../../lib/tokens';

/**
 * Webhook tokens at rest: the SHA-256 finds the strategy (a database leak gives no working URL),
 * and an AES-GCM copy bound to the strategy lets admins read the URL again.
 */
export interface WebhookTokenColumns {
  webhookTokenHash: string;
  webhookTokenSealed: string;
  legacyWebhookToken: null;
}

const bindingOf = (strategyId: string) => `strategy:${strategyId}:webhookToken`;

export function webhookTokenColumns(secrets: Secrets, strategyId: string, token: string): WebhookTokenColumns {
  return { webhookTokenHash: sha256(token), webhookTokenSealed: secrets.encrypt(token, bindingOf(strategyId)), legacyWebhookToken: null };
}

/** A fresh token (256 random bits) and the columns that store it. */
export function newWebhookToken(secrets: Secrets, strategyId: string): { token: string; columns: WebhookTokenColumns } {
  const token = newToken();
  return { token, columns: webhookTokenColumns(secrets, strategyId, token) };
}

/** No webhook at all (a deleted strategy): its URL stops working. */
export const noWebhookColumns = { webhookTokenHash: null, webhookTokenSealed: null, legacyWebhookToken: null } as const;

/** The token of a strategy row, for an admin's eyes; null when it has no webhook. */
export function readWebhookToken(secrets: Secrets, row: { id: string; webhookTokenSealed: string | null; legacyWebhookToken: string | null }): string | null {
  if (row.webhookTokenSealed !== null) return secrets.decrypt(row.webhookTokenSealed, bindingOf(row.id));
  return row.legacyWebhookToken;
}

/**
 * Tokens stored in plaintext before hashing (the migration already hashed them): sealed with the
 * master key and cleared. Runs at start; answers how many were sealed.
 */
export async function sealLegacyWebhookTokens(db: DbOrTx, secrets: Secrets): Promise<number> {
  const rows = await db
    .select({ id: strategies.id, token: strategies.legacyWebhookToken })
    .from(strategies)
    .where(isNotNull(strategies.legacyWebhookToken));
  for (const row of rows) {
    await db
      .update(strategies)
      .set(webhookTokenColumns(secrets, row.id, row.token!))
      .where(and(eq(strategies.id, row.id), eq(strategies.legacyWebhookToken, row.token!)));
  }
  return rows.length;
}
