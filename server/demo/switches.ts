import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { setCustomerGuards } from '../modules/guards/repository';
import { setPause } from '../modules/switches/repository';
import { applyDrawdownGuard } from '../trading/intake';

/** The demo strategy the admin paused (its alerts are answered and skipped until resumed). */
export const PAUSED_DEMO_STRATEGY = 'XRP-BREAKOUT';

interface WalletPath {
  customerId: number;
  wallet: number;
  high: number;
}

/**
 * Each live customer's wallet now and the highest it stood at over the history: the deposit (the wallet less
 * all realized PnL) plus the realized PnL of their positions, close after close.
 */
async function walletPaths(deps: Pick<Deps, 'db'>): Promise<WalletPath[]> {
  const result = await deps.db.execute<{ customer_id: number; wallet: string; high: string }>(sql`
    with steps as (
      select c.id customer_id, c.current_wallet_amount wallet,
        c.current_wallet_amount - sum(e.realized_pnl) over (partition by c.id) deposit,
        c.current_wallet_amount - sum(e.realized_pnl) over (partition by c.id)
          + sum(e.realized_pnl) over (partition by c.id order by e.closed_at, e.id) balance
      from customers c join executions e on e.customer_id = c.id and e.state = 'closed'
      where c.account_live and c.current_wallet_amount > 0)
    select customer_id, max(wallet) wallet, greatest(max(balance), max(deposit)) high from steps group by customer_id`);
  return result.rows.map((row) => ({ customerId: Number(row.customer_id), wallet: Number(row.wallet), high: Number(row.high) }));
}

/**
 * What the kill switches and guards look like in use (issue 29): one strategy paused by the admin, and the
 * customer whose wallet stands furthest below its high paused by a maximum drawdown guard set just under
 * that fall, through the guard's own check of their wallet.
 */
export async function seedDemoSwitches(deps: Deps, adminAccountId: number, now: Date): Promise<void> {
  await setPause(deps.db, { scope: 'strategy', strategyId: PAUSED_DEMO_STRATEGY }, true, adminAccountId, now);
  const deepest = (await walletPaths(deps))
    .map((path) => ({ ...path, drawdownPct: ((path.high - path.wallet) / path.high) * 100 }))
    .filter((path) => path.drawdownPct >= 1)
    .sort((a, b) => b.drawdownPct - a.drawdownPct)[0];
  if (!deepest) return;
  const limits = { maxNotionalUsdt: null, maxLeverage: null, maxOpenPositions: null, minFreeBalanceUsdt: null, dailyLossLimitUsdt: null };
  await setCustomerGuards(deps.db, deepest.customerId, { ...limits, maxDrawdownPct: Math.floor(deepest.drawdownPct), lossGuardResume: 'staff' }, adminAccountId);
  await deps.db.execute(sql`update customer_guards set equity_high_water = ${deepest.high} where customer_id = ${deepest.customerId}`);
  await applyDrawdownGuard(deps.db, deepest.customerId, deepest.wallet, now);
}
