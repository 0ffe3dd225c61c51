import { describe, expect, it } from 'vitest';
import { contextsOf, type ContextTable } from './context';

describe('execution contexts read from the table execution_contexts answers', () => {
  it('reads each row by its column names, whatever their order, and keeps only the rows asked for', () => {
    const base: Record<string, unknown> = {
      id: 7, order_id: 3, customer_id: 11, account_id: 5, client_order_id: 'ct3-11-e', state: 'pending', attempts: 1,
      deadline_at: '2026-11-28T10:00:30+00:00', entry_window_s: 30, close_requested_at: null, exit_type: null, protected_at: null,
      quantity: null, entry_price: null, closed_qty: 0, realized_pnl: 0, legs: [], stop_loss_price: null, stop_moved_to_entry: false,
      side: 1, entry_type: 1, platform_type: 2, api_key_enc: 'k', api_secret_enc: 's', passphrase_enc: null, invest_type: 1,
      invest_amount: 100, reference_price: null, last_mark_price: null, shared_slot: false, claimed_by: 'w1', strategy_id: 'S1',
      symbol: 'BTCUSDT', leverage: 10, position_mode: 1, take_profit_type: 1, take_profit_mode: 1, tp1_target_level: 1,
      tp1_close_volume: 100, tp2_target_level: null, tp2_close_volume: null, tp3_target_level: null, stop_loss_type: 1,
      stop_loss_amount: 2, advance_stop_loss: false, trailing_stop: false, activation_type: null, activation_amount: null,
      close_type: null, close_amount: null, max_slippage_bps: 40, guard_max_notional_usdt: 2500, guard_max_leverage: null,
      guard_max_open_positions: 3, guard_min_free_balance_usdt: null,
    };
    const columns = Object.keys(base).reverse();
    const table: ContextTable = {
      columns,
      rows: [columns.map((name) => base[name]), columns.map((name) => (name === 'id' ? 8 : name === 'claimed_by' ? 'w2' : base[name]))],
    };
    const [context, ...others] = contextsOf(table, (claimedBy) => claimedBy === 'w1');
    expect(others).toEqual([]);
    expect(context).toMatchObject({ id: 7, orderId: 3, customerId: 11, clientOrderId: 'ct3-11-e', entryWindowMs: 30_000, credentials: { apiKeyEnc: 'k', apiSecretEnc: 's', passphraseEnc: null } });
    expect(context!.strategy).toMatchObject({ id: 'S1', symbol: 'BTCUSDT', leverage: 10, tp2TargetLevel: null, maxSlippageBps: 40 });
    expect(context!.guards).toEqual({ maxNotionalUsdt: 2500, maxLeverage: null, maxOpenPositions: 3, minFreeBalanceUsdt: null });
    expect(contextsOf(table).map((c) => c.id)).toEqual([7, 8]);
    // A statement that claimed nothing answers an empty array.
    expect(contextsOf([])).toEqual([]);
    // A column missing from the answer is an error, not a NaN in an order.
    expect(() => contextsOf({ columns: columns.filter((name) => name !== 'leverage'), rows: [] })).toThrow(/leverage/);
  });
});
