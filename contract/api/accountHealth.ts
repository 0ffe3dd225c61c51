import { z } from 'zod';
import { ENABLED_EXCHANGES } from '../enums';
import { id, numberOneOf, pageRequestOf, text } from '../common';
import { pagedOf } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';

/**
 * Account Health Check (/activity/account). The spec shows no content and no paths; these are ours:
 * one row per customer with an exchange key, from the last wallet sync (every 5 minutes by
 * default, WALLET_SYNC_INTERVAL_MS) or an on-demand sync.
 */
export const healthRow = z.object({
  customerId: z.number().int(),
  accountId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  accountStatus: z.number().int(),
  /** 1 Bitget, 2 Bybit. */
  platformType: z.number().int(),
  /** Masked, e.g. ****1234. */
  apiKey: z.string().nullable(),
  currentWalletAmount: z.number(),
  /** null: not checked yet. */
  keyValid: z.boolean().nullable(),
  canTrade: z.boolean().nullable(),
  /** true is a security problem: the platform never needs withdrawal rights. */
  canWithdraw: z.boolean().nullable(),
  ipBound: z.boolean().nullable(),
  positionMode: z.enum(['oneway', 'hedge']).nullable(),
  checkedAt: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** Not checked yet, key invalid, cannot trade, can withdraw, or the last sync failed. */
  problem: z.boolean(),
});
export type HealthRow = z.infer<typeof healthRow>;

const enabledPlatform = numberOneOf(ENABLED_EXCHANGES, 'platformType must be 1 (Bitget) or 2 (Bybit)');

export const healthSearchBody = pageRequestOf(50).extend({
  platformType: enabledPlatform.nullish(),
  /** Only rows with a problem (see `problem`). */
  problemsOnly: z.boolean({ error: 'problemsOnly must be true or false' }).default(false),
  /** Only keys that can withdraw. */
  withdrawalEnabled: z.boolean({ error: 'withdrawalEnabled must be true or false' }).default(false),
  /** Only keys the exchange refused. */
  keyInvalid: z.boolean({ error: 'keyInvalid must be true or false' }).default(false),
  /** Part of the customer's first name, last name or email. */
  name: text().trim().max(100, 'name may be at most 100 characters').nullish(),
});

export const healthSyncBody = z.object({
  /** One customer (customers.id); without it every connected customer is synced. */
  customerId: id.nullish(),
});

export const healthSyncResult = z.object({
  /** Customers whose exchange was asked. */
  checked: z.number().int(),
  /** Customers whose wallet amount was updated. */
  walletsUpdated: z.number().int(),
  /** Customers whose key or sync failed. */
  failed: z.number().int(),
  /** Customers whose key can withdraw. */
  withdrawalEnabled: z.number().int(),
});
export type HealthSyncResult = z.infer<typeof healthSyncResult>;

export const accountHealthRoutes = {
  search: defineRoute({
    method: 'POST', path: '/api/health/search', access: 'staffRead', tag: 'account health',
    summary: 'Account Health Check: exchange key and wallet sync state per connected customer',
    body: healthSearchBody, data: pagedOf(healthRow),
  }),
  sync: defineRoute({
    method: 'POST', path: '/api/health/sync', access: 'adminManage', tag: 'account health',
    summary: 'Sync wallets and key health now: every connected customer, or one',
    body: healthSyncBody, data: healthSyncResult, errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
};
