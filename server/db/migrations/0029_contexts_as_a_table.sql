-- execution_contexts (migration alert_in_one_statement) answers a table instead of one object per execution:
-- {"columns": [names], "rows": [[values in that order], ...]}, rows by id as before. The column names were most
-- of the JSON: 5,000 contexts were ~6 MB for PostgreSQL to write and for the process sending the orders to
-- parse (~6 ms per 1,000 on its main thread, while the first entries leave); as a table ~2 MB. Same columns,
-- same values (server/trading/context.ts reads them by name).
CREATE OR REPLACE FUNCTION execution_contexts(p_ids integer[]) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object('columns', json_build_array(
    'id', 'order_id', 'customer_id', 'client_order_id', 'state', 'attempts', 'deadline_at', 'close_requested_at', 'claimed_by', 'entry_window_s',
    'exit_type', 'protected_at', 'quantity', 'entry_price', 'closed_qty', 'realized_pnl', 'legs', 'stop_loss_price', 'stop_moved_to_entry', 'last_mark_price',
    'reference_price', 'side', 'entry_type', 'strategy_id', 'account_id', 'platform_type', 'api_key_enc', 'api_secret_enc', 'passphrase_enc', 'invest_type',
    'invest_amount', 'symbol', 'leverage', 'position_mode', 'take_profit_type', 'take_profit_mode', 'tp1_target_level', 'tp1_close_volume', 'tp2_target_level', 'tp2_close_volume',
    'tp3_target_level', 'stop_loss_type', 'stop_loss_amount', 'advance_stop_loss', 'trailing_stop', 'activation_type', 'activation_amount', 'close_type', 'close_amount', 'shared_slot'),
    'rows', (SELECT coalesce(json_agg(json_build_array(
      x.id, x.order_id, x.customer_id, x.client_order_id, x.state, x.attempts, x.deadline_at, x.close_requested_at, x.claimed_by, x.entry_window_s,
      x.exit_type, x.protected_at, x.quantity, x.entry_price, x.closed_qty, x.realized_pnl, x.legs, x.stop_loss_price, x.stop_moved_to_entry, x.last_mark_price,
      x.reference_price, x.side, x.entry_type, x.strategy_id, x.account_id, x.platform_type, x.api_key_enc, x.api_secret_enc, x.passphrase_enc, x.invest_type,
      x.invest_amount, x.symbol, x.leverage, x.position_mode, x.take_profit_type, x.take_profit_mode, x.tp1_target_level, x.tp1_close_volume, x.tp2_target_level, x.tp2_close_volume,
      x.tp3_target_level, x.stop_loss_type, x.stop_loss_amount, x.advance_stop_loss, x.trailing_stop, x.activation_type, x.activation_amount, x.close_type, x.close_amount, x.shared_slot) ORDER BY x.id), '[]'::json) FROM (
    SELECT e.id, e.order_id, e.customer_id, e.client_order_id, e.state, e.attempts, e.deadline_at, e.close_requested_at, e.claimed_by,
      extract(epoch from e.deadline_at - o.datetime_inserted) AS entry_window_s,
      e.exit_type, e.protected_at, e.quantity, e.entry_price, e.closed_qty, e.realized_pnl, e.legs, e.stop_loss_price,
      e.stop_moved_to_entry, e.last_mark_price, o.reference_price, o.side, o.entry_type, o.strategy_id,
      c.account_id, c.platform_type, c.api_key_enc, c.api_secret_enc, c.passphrase_enc,
      coalesce(g.invest_type, gi.invest_type) AS invest_type, coalesce(g.invest_amount, gi.invest_amount) AS invest_amount,
      s.symbol, s.leverage, s.position_mode, s.take_profit_type, s.take_profit_mode, s.tp1_target_level, s.tp1_close_volume,
      s.tp2_target_level, s.tp2_close_volume, s.tp3_target_level, s.stop_loss_type, s.stop_loss_amount,
      s.advance_stop_loss, s.trailing_stop, s.activation_type, s.activation_amount, s.close_type, s.close_amount,
      EXISTS (SELECT 1 FROM executions e2 JOIN orders o2 ON o2.id = e2.order_id
              WHERE e2.customer_id = e.customer_id AND e2.id <> e.id AND e2.state IN ('pending', 'open') AND o2.side = o.side
                AND (SELECT s2.symbol FROM strategies s2 WHERE s2.id = o2.strategy_id) = s.symbol) AS shared_slot
    FROM executions e
    JOIN orders o ON o.id = e.order_id
    JOIN strategies s ON s.id = o.strategy_id
    JOIN customers c ON c.id = e.customer_id
    LEFT JOIN strategy_groups g ON g.strategy_id = s.id AND g."group" = c."group"
    LEFT JOIN strategy_groups gi ON gi.strategy_id = s.id AND gi."group" = 2
    WHERE e.id = ANY(p_ids)) x));
END
$$;
