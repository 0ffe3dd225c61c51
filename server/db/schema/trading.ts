import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  bigint,
  jsonb,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { ExecutionLeg } from '../../trading/legs';
import { accounts } from './accounts';
import { insertedBy } from './transaction-id';
import { customers } from './people';

const now = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
const decimal = () => numeric({ precision: 24, scale: 8 });

export const strategies = pgTable(
  'strategies',
  {
    /** User-entered id, e.g. BTC001. */
    id: text().primaryKey(),
    symbol: text().notNull(),
    entryDirection: smallint().notNull(),
    leverage: integer().notNull(),
    positionMode: smallint().notNull(),
    takeProfitType: smallint().notNull(),
    takeProfitMode: smallint().notNull(),
    tp1TargetLevel: decimal().notNull(),
    tp1CloseVolume: decimal().notNull(),
    tp2TargetLevel: decimal(),
    tp2CloseVolume: decimal(),
    tp3TargetLevel: decimal(),
    tp3CloseVolume: decimal(),
    stopLossType: smallint().notNull(),
    stopLossAmount: decimal().notNull(),
    advanceStopLoss: boolean().notNull().default(false),
    trailingStop: boolean().notNull().default(false),
    activationType: smallint(),
    activationAmount: decimal(),
    closeType: smallint(),
    closeAmount: decimal(),
    status: smallint().notNull().default(1),
    /** Guard (issue 29): an entry alert stamped longer ago is skipped; null: the process's MAX_ALERT_AGE_MS. */
    maxAlertAgeS: integer(),
    /** Guard (issue 29): an entry whose expected fill is further than this from the alert's price (basis points) is skipped; null: no limit. */
    maxSlippageBps: integer(),
    exclusiveCustomerId: integer().references(() => customers.id),
    /**
     * The secret path segment of /api/webhook/{token} (256 random bits) is never stored: its
     * SHA-256 finds the strategy, and an AES-GCM copy (server/lib/secrets.ts) lets admins read the
     * URL. Both null: the strategy has no webhook (deleted).
     */
    webhookTokenHash: text(),
    webhookTokenSealed: text(),
    /** Tokens stored before hashing; sealed and cleared at start (server/modules/strategies/webhook-token.ts). */
    legacyWebhookToken: text('webhook_token'),
    datetimeInserted: now(),
    datetimeUpdated: now(),
    /** Deleted strategies keep their row (orders and earnings refer to it); the id stays taken. */
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('strategies_webhook_hash_uq').on(t.webhookTokenHash),
    index('strategies_symbol_idx').on(t.symbol),
    check('strategies_direction_ck', sql`${t.entryDirection} in (1, 2)`),
    check('strategies_mode_ck', sql`${t.positionMode} in (1, 2)`),
    check('strategies_tp_type_ck', sql`${t.takeProfitType} in (1, 3)`),
    check('strategies_tp_mode_ck', sql`${t.takeProfitMode} in (1, 2)`),
    check('strategies_sl_type_ck', sql`${t.stopLossType} in (1, 3)`),
    check('strategies_status_ck', sql`${t.status} in (1, 2)`),
    check('strategies_leverage_ck', sql`${t.leverage} between 1 and 200`),
    check('strategies_max_alert_age_ck', sql`${t.maxAlertAgeS} between 1 and 86400`),
    check('strategies_max_slippage_ck', sql`${t.maxSlippageBps} between 1 and 10000`),
  ],
);

export const strategyGroups = pgTable(
  'strategy_groups',
  {
    strategyId: text()
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    group: smallint().notNull(),
    investType: smallint().notNull(),
    investAmount: decimal().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.strategyId, t.group] }),
    index('strategy_groups_group_idx').on(t.group),
    check('strategy_groups_group_ck', sql`${t.group} between 1 and 5`),
    check('strategy_groups_invest_ck', sql`${t.investType} in (1, 2)`),
  ],
);

/** Every webhook alert received, kept for idempotency and audit. */
export const signals = pgTable(
  'signals',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    strategyId: text()
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    alertId: text(),
    bodyHash: text().notNull(),
    body: text().notNull(),
    action: text(),
    sourceIp: text(),
    /** Why the signal was refused, or what it did (e.g. 'duplicate of signal 12'). */
    outcome: text(),
    receivedAt: now(),
  },
  (t) => [
    uniqueIndex('signals_alert_uq').on(t.strategyId, t.alertId).where(sql`${t.alertId} is not null`),
    index('signals_hash_idx').on(t.strategyId, t.bodyHash, t.receivedAt),
  ],
);

/** The spec's Order ("transaction"): one per signal or manual trade. */
export const orders = pgTable(
  'orders',
  {
    id: serial().primaryKey(),
    strategyId: text()
      .notNull()
      .references(() => strategies.id),
    signalId: bigint({ mode: 'number' }).references(() => signals.id),
    side: smallint().notNull(),
    status: smallint().notNull().default(1),
    entryType: smallint().notNull(),
    realizedPnl: decimal().notNull().default('0'),
    /** Price given by the alert ({{close}}), used to size `$` entries when present. */
    referencePrice: decimal(),
    datetimeInserted: now(),
    datetimeUpdated: now(),
    closedAt: timestamp({ withTimezone: true, mode: 'date' }),
    insertedBy: insertedBy(),
  },
  (t) => [
    index('orders_strategy_idx').on(t.strategyId, t.status),
    /** The order search, newest first, with its strategy filter read from the index alone. */
    index('orders_inserted_id_idx').on(t.datetimeInserted, t.id, t.strategyId),
    index('orders_inserted_by_idx').on(t.insertedBy),
    check('orders_side_ck', sql`${t.side} in (1, 2)`),
    check('orders_status_ck', sql`${t.status} in (1, 2, 3)`),
    check('orders_entry_type_ck', sql`${t.entryType} in (1, 2)`),
  ],
);

/** One customer's part of an Order: the durable unit of work of the dispatcher. */
export const executions = pgTable(
  'executions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    clientOrderId: text().notNull(),
    /** pending (entry to place) -> open (position held) -> closed; or failed / skipped. */
    state: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    claimedBy: text(),
    claimExpiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    nextAttemptAt: now(),
    deadlineAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    quantity: decimal(),
    entryPrice: decimal(),
    exchangeOrderId: text(),
    realizedPnl: decimal().notNull().default('0'),
    lastError: text(),
    /** Set once TP legs, stop loss and trailing stop are on the exchange. */
    protectedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** TP legs and trailing stop placed for this position (client ids, sizes, prices, fills). */
    legs: jsonb().$type<ExecutionLeg[]>().notNull().default([]),
    stopLossPrice: decimal(),
    stopMovedToEntry: boolean().notNull().default(false),
    lastMarkPrice: decimal(),
    /** Quantity closed so far by legs, stops or close orders. */
    closedQty: decimal().notNull().default('0'),
    closeRequestedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Exit type of the requested close: 1 by admin, 2 customer, null by signal or TP/SL. */
    exitType: smallint(),
    closedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * Execution quality (issue 29): when the entry was handed to the exchange client, when the exchange
     * acknowledged it, and when the engine learnt of its fill. The alert's arrival is the Order's creation.
     */
    entrySentAt: timestamp({ withTimezone: true, mode: 'date' }),
    entryAckedAt: timestamp({ withTimezone: true, mode: 'date' }),
    entryFilledAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The close-all that asked this execution to close, if one did. */
    closeAllId: integer().references((): AnyPgColumn => closeAllRuns.id, { onDelete: 'set null' }),
    createdAt: now(),
    updatedAt: now(),
  },
  (t) => [
    uniqueIndex('executions_order_customer_uq').on(t.orderId, t.customerId),
    /** A close-all's progress: its executions and their states. */
    index('executions_close_all_idx').on(t.closeAllId).where(sql`${t.closeAllId} is not null`),
    uniqueIndex('executions_client_order_uq').on(t.clientOrderId),
    index('executions_ready_idx').on(t.state, t.nextAttemptAt),
    index('executions_open_idx').on(t.state).where(sql`${t.state} in ('pending', 'open')`),
    check('executions_state_ck', sql`${t.state} in ('pending', 'open', 'closed', 'failed', 'skipped')`),
    /** A customer's executions, and its live ones (position sharing, Receive Webhook Once) without scanning every live execution. */
    index('executions_customer_state_idx').on(t.customerId, t.state),
    /** Orders whose close was asked for and still has positions to close (the order list's `closing`). */
    index('executions_closing_idx')
      .on(t.orderId)
      .where(sql`${t.state} in ('pending', 'open') and ${t.closeRequestedAt} is not null`),
  ],
);

/**
 * A close-all (issue 29): an admin closing every live position of a strategy, of a customer or of the
 * platform at market through the engine's close path. Its executions carry its id; its progress is
 * their states. Who asked is also in the staff log.
 */
export const closeAllRuns = pgTable(
  'close_all_runs',
  {
    id: serial().primaryKey(),
    scope: text().notNull(),
    strategyId: text().references(() => strategies.id, { onDelete: 'cascade' }),
    customerId: integer().references(() => customers.id, { onDelete: 'cascade' }),
    requestedAt: now(),
    requestedBy: integer().references(() => accounts.id, { onDelete: 'set null' }),
    /** Live executions it asked to close. */
    positions: integer().notNull().default(0),
  },
  (t) => [
    index('close_all_runs_strategy_idx').on(t.strategyId, t.id),
    index('close_all_runs_customer_idx').on(t.customerId, t.id),
    check(
      'close_all_runs_scope_ck',
      sql`(${t.scope} = 'platform' and ${t.strategyId} is null and ${t.customerId} is null)
        or (${t.scope} = 'strategy' and ${t.strategyId} is not null and ${t.customerId} is null)
        or (${t.scope} = 'customer' and ${t.customerId} is not null and ${t.strategyId} is null)`,
    ),
  ],
);

export const entryAudits = pgTable(
  'entry_audits',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderId: integer().references(() => orders.id),
    customerId: integer().references(() => customers.id),
    strategyId: text().references(() => strategies.id, { onDelete: 'set null' }),
    entryType: smallint(),
    message: text().notNull(),
    datetimeInserted: now(),
    insertedBy: insertedBy(),
  },
  (t) => [
    /** The search, newest first, with its strategy and order filters read from the index alone. */
    index('entry_audits_inserted_id_idx').on(t.datetimeInserted, t.id, t.strategyId, t.orderId),
    index('entry_audits_order_idx').on(t.orderId),
    /** Counts of one symbol's rows (its strategies), read from the index alone. */
    index('entry_audits_strategy_idx').on(t.strategyId),
    index('entry_audits_inserted_by_idx').on(t.insertedBy),
  ],
);

export const exitAudits = pgTable(
  'exit_audits',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderId: integer().references(() => orders.id),
    customerId: integer().references(() => customers.id),
    strategyId: text().references(() => strategies.id, { onDelete: 'set null' }),
    exitType: smallint(),
    isError: boolean().notNull().default(false),
    message: text().notNull(),
    datetimeInserted: now(),
    insertedBy: insertedBy(),
  },
  (t) => [
    /** The search, newest first, with its strategy, order and exit type filters read from the index alone. */
    index('exit_audits_inserted_id_idx').on(t.datetimeInserted, t.id, t.strategyId, t.orderId, t.exitType),
    index('exit_audits_order_idx').on(t.orderId),
    /** Counts of one symbol's or one exit type's rows, read from the index alone. */
    index('exit_audits_strategy_idx').on(t.strategyId),
    index('exit_audits_exit_type_idx').on(t.exitType),
    index('exit_audits_inserted_by_idx').on(t.insertedBy),
    check('exit_audits_type_ck', sql`${t.exitType} is null or ${t.exitType} in (1, 2)`),
  ],
);

/** Receive Webhook Once, one row per customer group. */
export const webhookGroupSettings = pgTable(
  'webhook_group_settings',
  {
    id: serial().primaryKey(),
    group: smallint().notNull(),
    isActive: boolean().notNull().default(false),
    datetimeUpdated: now(),
  },
  (t) => [uniqueIndex('webhook_group_settings_group_uq').on(t.group), check('webhook_group_settings_group_ck', sql`${t.group} between 1 and 5`)],
);

/** Leverage and position mode last set on the exchange, per customer and symbol (hot path skips them). */
export const exchangeAccountSettings = pgTable(
  'exchange_account_settings',
  {
    customerId: integer()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    platformType: smallint().notNull(),
    symbol: text().notNull(),
    leverage: integer().notNull(),
    positionMode: smallint().notNull(),
    updatedAt: now(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.platformType, t.symbol] })],
);

/**
 * Events counted when they happen (Bybit's new trade connections, `/trade-connections` after the address)
 * per exchange and egress address (EXCHANGE_EGRESS), by time slot (a tenth of the window): every process
 * on one address leases its tokens here in batches (`lease_egress_tokens`,
 * server/trading/exchanges/egress-budget.ts). Requests are shared as window parts (`egress_shares`).
 */
export const egressBudgetSlots = pgTable(
  'egress_budget_slots',
  {
    exchange: text().notNull(),
    egress: text().notNull(),
    slot: bigint({ mode: 'number' }).notNull(),
    granted: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.egress, t.slot] })],
);

/**
 * Each process's part of an exchange's per-address window (EXCHANGE_EGRESS): the process sizes its own
 * sliding window to `capacity` (`share_egress_window`, server/trading/exchanges/egress-share.ts), and
 * the capacities of every live process on an address never add up to more than the ceiling. A row
 * outlives its process by the exchange's window (its last requests are still counted there).
 */
export const egressShares = pgTable(
  'egress_shares',
  {
    exchange: text().notNull(),
    egress: text().notNull(),
    holder: text().notNull(),
    capacity: integer().notNull(),
    wanted: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.egress, t.holder] })],
);

/**
 * Address bans an exchange answered (Bybit's 403 after its per-address ceiling), shared by every
 * process on that egress address (server/trading/exchanges/egress-budget.ts): the process that got
 * the 403 writes it, the others learn of it with their next round of their window parts and hold their requests too.
 */
export const egressBans = pgTable(
  'egress_bans',
  {
    exchange: text().notNull(),
    egress: text().notNull(),
    since: timestamp({ withTimezone: true }).notNull(),
    until: timestamp({ withTimezone: true }).notNull(),
    reason: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.egress] })],
);

/** Trading processes alive (dispatchers): each beats here; the account slices are shared out among them. */
export const tradingWorkers = pgTable('trading_workers', {
  worker: text().primaryKey(),
  heartbeatAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /**
   * The egress address this worker sends Bybit orders over WebSocket order entry from (null: it does
   * not): the live workers on one address split its order-entry window (accounts/order-entry-share.ts).
   */
  orderEntryEgress: text(),
});

/**
 * Customers' exchange accounts in slices (customer id modulo the slice count): each slice is leased by
 * one live worker, which keeps those accounts warm and claims their executions
 * (server/trading/accounts/leases.ts). A dead worker's slices move on when their lease expires.
 */
export const accountSlices = pgTable('account_slices', {
  slice: integer().primaryKey(),
  owner: text(),
  leaseUntil: timestamp({ withTimezone: true }),
});

/**
 * What the reconciler told staff about an account and is still so: a position the platform did not open
 * (`untracked`) or one larger than its executions account for (`oversized`). One row per customer,
 * symbol, side and kind, so a finding is told once, again only when its size changes, and forgotten once
 * it is resolved (server/trading/accounts/reconcile-account.ts).
 */
export const reconcilerFindings = pgTable(
  'reconciler_findings',
  {
    customerId: integer()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    symbol: text().notNull(),
    side: text().notNull(),
    kind: text().notNull(),
    size: decimal().notNull(),
    reportedAt: now(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.symbol, t.side, t.kind] })],
);

/**
 * Moves on with every statement that writes orders, executions, strategies or the entry and exit
 * audits (migration activity_list_changes): the order search and the audit searches keep whole
 * answers while it and the customer lists' counter have not moved (server/db/settled-answers.ts).
 */
export const activityListChanges = pgSequence('activity_list_changes');
