import { eq } from 'drizzle-orm';
import {
  DEFAULT_MONTHLY_THRESHOLD_USDT,
  DEFAULT_PROFIT_SHARE_PCT,
  earningsSettings,
  type EarningsSettings,
} from '../../../contract/api/earnings';
import type { Clock } from '../../lib/clock';
import type { DbOrTx } from '../../db/client';
import { settings } from '../../db/schema/index';

export const EARNINGS_SETTINGS_KEY = 'earnings';

/** The default profit share and the monthly threshold; the built-in defaults until an admin sets them. */
export async function readEarningsSettings(db: DbOrTx): Promise<EarningsSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, EARNINGS_SETTINGS_KEY));
  const parsed = earningsSettings.safeParse(row?.value);
  if (parsed.success) return parsed.data;
  return { defaultProfitSharePct: DEFAULT_PROFIT_SHARE_PCT, monthlyThresholdUsdt: DEFAULT_MONTHLY_THRESHOLD_USDT };
}

export async function writeEarningsSettings(db: DbOrTx, clock: Clock, value: EarningsSettings): Promise<EarningsSettings> {
  await db
    .insert(settings)
    .values({ key: EARNINGS_SETTINGS_KEY, value, updatedAt: clock.now() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: clock.now() } });
  return value;
}
