import type { HealthSyncResult } from '../../../contract/api/accountHealth';
import { Exchange, NotificationType, exchangeLabels } from '../../../contract/enums';
import type { Deps } from '../../deps';
import { publishNotification } from '../../lib/notify';
import { ExchangeFailure, type ExchangeId, type KeyCheck } from '../../trading/exchanges/types';
import { applyDrawdownGuard } from '../../trading/intake';
import { decryptCredentials } from '../../lib/credentials';
import { connectedCustomers, saveHealth, saveWallet, type ConnectedCustomer } from './repository';

/** Customers synced at once; the exchange rate limiter paces the requests themselves. */
const CONCURRENCY = 16;

export type SyncDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'log' | 'exchanges'>;

const exchangeOfPlatform: Partial<Record<number, ExchangeId>> = { [Exchange.Bybit]: 'bybit', [Exchange.Bitget]: 'bitget' };

interface Outcome {
  walletUpdated: boolean;
  failed: boolean;
  canWithdraw: boolean;
}

/**
 * Checks one customer's key (valid, can trade, cannot withdraw, IP bound, position mode), reads
 * the wallet when the key works, and records both. A key that can withdraw is reported to staff
 * once (again only after it was fixed and came back).
 */
export async function syncCustomer(deps: SyncDeps, customer: ConnectedCustomer): Promise<Outcome> {
  const now = deps.clock.now();
  const exchange = exchangeOfPlatform[customer.platformType];
  const key = exchange ? decryptCredentials(deps.secrets, customer) : undefined;
  if (!exchange || !key) {
    await saveHealth(deps.db, customer.customerId, { checkedAt: now, lastError: 'No complete API key is stored: ask the customer to connect their exchange' });
    return { walletUpdated: false, failed: true, canWithdraw: false };
  }
  const adapter = deps.exchanges.adapters[exchange];
  // Background work: its requests never take more than a quarter of an address's request budget.
  const credentials = { ...key, background: true as const };
  let check: KeyCheck;
  try {
    check = await adapter.checkKey(credentials);
  } catch (error) {
    // A temporary failure says nothing about the key: keep what we knew, record the error.
    await saveHealth(deps.db, customer.customerId, { checkedAt: now, lastError: messageOf(error) });
    return { walletUpdated: false, failed: true, canWithdraw: false };
  }
  let walletUpdated = false;
  let lastError = check.error ?? null;
  if (check.valid) {
    try {
      const balance = await adapter.fetchBalance(credentials);
      await saveWallet(deps.db, customer.customerId, balance.total);
      walletUpdated = true;
      await applyDrawdownGuard(deps.db, customer.customerId, balance.total, now);
    } catch (error) {
      lastError = messageOf(error);
    }
  }
  const alertNow = check.canWithdraw && !customer.withdrawalAlertedAt;
  await deps.db.transaction(async (tx) => {
    await saveHealth(tx, customer.customerId, {
      keyValid: check.valid,
      canTrade: check.valid ? check.canTrade : false,
      canWithdraw: check.canWithdraw,
      ipBound: check.ipBound,
      positionMode: check.positionMode ?? null,
      checkedAt: now,
      ...(walletUpdated ? { lastSyncAt: now } : {}),
      lastError,
      withdrawalAlertedAt: check.canWithdraw ? (customer.withdrawalAlertedAt ?? now) : null,
    });
    if (alertNow) {
      const name = `${customer.firstName} ${customer.lastName}`.trim();
      await publishNotification(tx, {
        type: NotificationType.EntryFailure,
        message: `Security: the ${exchangeLabels[customer.platformType as Exchange]} API key of ${name} (customer ${customer.customerId}) can withdraw funds. Ask the customer to remove the withdrawal permission or reconnect through quick connect.`,
      });
    }
  });
  if (alertNow) deps.log.warn({ customerId: customer.customerId, exchange }, 'exchange key can withdraw');
  return { walletUpdated, failed: lastError !== null || !check.valid, canWithdraw: check.canWithdraw };
}

/**
 * Syncs every connected customer (or one), a few at a time, as background work (see `syncCustomer`): its
 * requests never take more than a quarter of an address's request budget, whatever trading needs meanwhile.
 * `checked` counts the customers started (all of them unless `signal` aborts the run).
 */
export async function syncCustomers(deps: SyncDeps, customerId?: number, signal?: AbortSignal): Promise<HealthSyncResult> {
  const queue = await connectedCustomers(deps.db, customerId);
  const result: HealthSyncResult = { checked: 0, walletsUpdated: 0, failed: 0, withdrawalEnabled: 0 };
  let next = 0;
  // Aborted (the process stopping): the customers in flight finish, no other starts.
  const worker = async () => {
    while (next < queue.length && !signal?.aborted) {
      const customer = queue[next]!;
      next += 1;
      result.checked += 1;
      const outcome = await syncCustomer(deps, customer).catch((error: unknown) => {
        deps.log.error({ err: error, customerId: customer.customerId }, 'wallet sync failed');
        return { walletUpdated: false, failed: true, canWithdraw: false };
      });
      if (outcome.walletUpdated) result.walletsUpdated += 1;
      if (outcome.failed) result.failed += 1;
      if (outcome.canWithdraw) result.withdrawalEnabled += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return result;
}

function messageOf(error: unknown): string {
  if (error instanceof ExchangeFailure) return error.staffMessage;
  return 'The exchange could not be asked (internal error); the next sync tries again';
}
