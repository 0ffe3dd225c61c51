import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Credentials, ExchangeAdapter, PositionModeName } from './exchanges/types';

export interface AccountSettings {
  leverage: number;
  positionMode: number;
}

/**
 * Leverage and position mode are set ahead of the entry and remembered per customer, exchange and
 * symbol (per process, backed by `exchange_account_settings` so every process knows what was set):
 * the hot path sends only the order, and re-sets them only when the strategy asks for other values.
 */
/** The leverage was left as it is because another open position of the account holds the symbol at it. */
export interface LeverageHeld {
  strategyId: string;
  leverage: number;
}

export interface SettingsCache {
  /**
   * Sets what differs. `holderOf` names the strategy of another open position on the symbol: the leverage
   * is then not changed under it, and the answer says so (null when everything wanted is set).
   */
  ensure(input: {
    adapter: ExchangeAdapter;
    credentials: Credentials;
    customerId: number;
    platformType: number;
    symbol: string;
    wanted: AccountSettings;
    holderOf?: () => Promise<string | null>;
  }): Promise<LeverageHeld | null>;
  forget(customerId: number): void;
  /** What is known to be set already (warm state loaded from `exchange_account_settings`). */
  remember(customerId: number, platformType: number, symbol: string, settings: AccountSettings): void;
}

export const modeName = (positionMode: number): PositionModeName => (positionMode === 2 ? 'hedge' : 'oneway');

export function createSettingsCache(db: Db): SettingsCache {
  const known = new Map<string, AccountSettings>();
  const inFlight = new Map<string, Promise<LeverageHeld | null>>();
  const keyOf = (customerId: number, platformType: number, symbol: string) => `${customerId}:${platformType}:${symbol}`;

  async function loadStored(customerId: number, platformType: number, symbol: string): Promise<AccountSettings | undefined> {
    const result = await db.execute<{ leverage: number; position_mode: number }>(sql`
      select leverage, position_mode from exchange_account_settings
      where customer_id = ${customerId} and platform_type = ${platformType} and symbol = ${symbol}`);
    const row = result.rows[0];
    return row ? { leverage: Number(row.leverage), positionMode: Number(row.position_mode) } : undefined;
  }

  return {
    async ensure({ adapter, credentials, customerId, platformType, symbol, wanted, holderOf }) {
      const key = keyOf(customerId, platformType, symbol);
      const cached = known.get(key);
      if (cached && cached.leverage === wanted.leverage && cached.positionMode === wanted.positionMode) return null;
      const running = inFlight.get(key);
      if (running) return running;
      const work = (async (): Promise<LeverageHeld | null> => {
        const stored = cached ?? (await loadStored(customerId, platformType, symbol));
        if (stored && stored.leverage !== wanted.leverage && holderOf) {
          const strategyId = await holderOf();
          if (strategyId !== null) return { strategyId, leverage: stored.leverage };
        }
        if (stored?.positionMode !== wanted.positionMode) await adapter.setPositionMode(credentials, symbol, modeName(wanted.positionMode));
        if (stored?.leverage !== wanted.leverage || stored?.positionMode !== wanted.positionMode) {
          await adapter.setLeverage(credentials, symbol, wanted.leverage);
        }
        if (stored?.leverage !== wanted.leverage || stored?.positionMode !== wanted.positionMode) {
          await db.execute(sql`
            insert into exchange_account_settings (customer_id, platform_type, symbol, leverage, position_mode)
            values (${customerId}, ${platformType}, ${symbol}, ${wanted.leverage}, ${wanted.positionMode})
            on conflict (customer_id, platform_type, symbol)
            do update set leverage = excluded.leverage, position_mode = excluded.position_mode, updated_at = now()`);
        }
        known.set(key, wanted);
        return null;
      })();
      inFlight.set(key, work);
      try {
        return await work;
      } finally {
        inFlight.delete(key);
      }
    },
    remember(customerId, platformType, symbol, settings) {
      known.set(keyOf(customerId, platformType, symbol), settings);
    },
    forget(customerId) {
      for (const key of known.keys()) if (key.startsWith(`${customerId}:`)) known.delete(key);
    },
  };
}
