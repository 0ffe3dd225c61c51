-- Alert intake in one round trip (server/trading/intake.ts, enqueue.ts). Enumerations used below, by
-- name (contract/enums.ts): AccountStatus.Active = 3; CustomerGroup.Internal = 2, Exclusive = 5;
-- Exchange.Bitget = 1, Bybit = 2; PositionMode.OneWay = 1; OrderStatus.Active = 1, Win = 2, Loss = 3;
-- NotificationType.EntryFailure = 1. SQLSTATE CT001 ('the alert has customers') is raised by
-- enqueue_order when asked to run only for an Order without eligible customers.

-- Settles an Order once none of its executions is pending or open: a win when its realized PnL is
-- positive, else a loss (server/trading/execution-state/order-settlement.ts). p_at null: now().
CREATE OR REPLACE FUNCTION finish_order_if_done(p_order_id integer, p_at timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  instant timestamptz := coalesce(p_at, now());
BEGIN
  UPDATE orders o
  SET status = (CASE WHEN x.pnl > 0 THEN 2 ELSE 3 END)::smallint,
      realized_pnl = x.pnl, closed_at = instant, datetime_updated = instant
  FROM (SELECT coalesce(sum(realized_pnl), 0) AS pnl, count(*) FILTER (WHERE state IN ('pending', 'open')) AS live
        FROM executions WHERE order_id = p_order_id) x
  WHERE o.id = p_order_id AND o.status = 1 AND x.live = 0;
  RETURN FOUND;
END
$$;
--> statement-breakpoint
-- The eligible customers of a strategy (ARCHITECTURE 6 "eligible"): account Active, exchange connected
-- with credentials, group among the strategy's groups; Exclusive only for the strategy's exclusive
-- customer while Internal is chosen.
CREATE OR REPLACE FUNCTION strategy_eligible_customers(p_strategy_id text) RETURNS TABLE (id integer, "group" smallint, platform_type smallint)
LANGUAGE sql STABLE AS $$
  SELECT c.id, c."group", c.platform_type
  FROM customers c JOIN accounts a ON a.id = c.account_id
  WHERE a.status = 3 AND a.deleted_at IS NULL
    AND c.platform_type IN (1, 2) AND c.api_key_enc IS NOT NULL AND c.api_secret_enc IS NOT NULL
    AND ((c."group" <> 5 AND c."group" IN (SELECT g."group" FROM strategy_groups g WHERE g.strategy_id = p_strategy_id))
      OR (c."group" = 5
          AND c.id = (SELECT s.exclusive_customer_id FROM strategies s WHERE s.id = p_strategy_id)
          AND EXISTS (SELECT 1 FROM strategy_groups g WHERE g.strategy_id = p_strategy_id AND g."group" = 5)
          AND EXISTS (SELECT 1 FROM strategy_groups g WHERE g.strategy_id = p_strategy_id AND g."group" = 2)))
$$;
--> statement-breakpoint
-- One Order of a strategy and its eligible customers, read after an advisory lock per (symbol,
-- customer bucket of 256) of every eligible customer is taken in key order, so two alerts on one
-- symbol for the same customers serialise and never deadlock. Per customer: Receive Webhook Once
-- blocks it (p_receive_once, its group has it on, it holds a live execution of this strategy), or the
-- first live execution it could not share the exchange position with (server/trading/position-sharing.ts:
-- 'modes', 'nets', 'trailing'). The caller queues the executions (execution-state) in the same
-- transaction. Without eligible customers the Order is settled at once; with p_only_if_empty and
-- eligible customers it raises CT001 (the caller's statement rolls back and it retries in a transaction).
-- Answers {orderId, symbol, positionMode, trailingStop, customers: [[id, group, platform_type,
-- blocked_by_receive_once, conflict_strategy, conflict_reason], ...]} (customers by id).
CREATE OR REPLACE FUNCTION enqueue_order(p_strategy_id text, p_signal_id bigint, p_side smallint, p_entry_type smallint, p_receive_once boolean,
  p_reference_price numeric, p_at timestamptz, p_only_if_empty boolean) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  instant timestamptz := coalesce(p_at, now());
  new_order_id integer;
  terms record;
  eligible jsonb;
  locks integer;
  once_groups smallint[];
  own_orders integer[];
  rival_orders integer[];
BEGIN
  INSERT INTO orders (strategy_id, signal_id, side, status, entry_type, reference_price, datetime_inserted, datetime_updated)
    VALUES (p_strategy_id, p_signal_id, p_side, 1, p_entry_type, p_reference_price, instant, instant)
    RETURNING id INTO new_order_id;
  SELECT s.symbol, s.position_mode, s.trailing_stop INTO terms FROM strategies s WHERE s.id = p_strategy_id;

  SELECT count(*) INTO locks FROM (
    SELECT pg_advisory_xact_lock(k) FROM (
      SELECT DISTINCT hashtext('position:' || terms.symbol || ':' || (ec.id % 256)) AS k FROM strategy_eligible_customers(p_strategy_id) ec ORDER BY k) keys) locked;
  IF locks = 0 THEN
    PERFORM finish_order_if_done(new_order_id, p_at);
    RETURN jsonb_build_object('orderId', new_order_id, 'symbol', terms.symbol, 'positionMode', terms.position_mode,
      'trailingStop', terms.trailing_stop, 'customers', '[]'::jsonb);
  END IF;
  IF p_only_if_empty THEN
    RAISE EXCEPTION 'the alert has customers' USING ERRCODE = 'CT001';
  END IF;

  -- Live executions belong to Active orders (an Order settles once none of its executions is live), so
  -- both checks look only at the executions of a few Active orders, not at every customer's history.
  IF p_receive_once THEN
    SELECT array_agg(w."group") INTO once_groups FROM webhook_group_settings w WHERE w.is_active;
    SELECT array_agg(o.id) INTO own_orders FROM orders o WHERE o.strategy_id = p_strategy_id AND o.status = 1 AND o.id <> new_order_id;
  END IF;
  SELECT array_agg(o2.id) INTO rival_orders
    FROM orders o2 JOIN strategies s2 ON s2.id = o2.strategy_id
    WHERE o2.status = 1 AND o2.id <> new_order_id AND s2.symbol = terms.symbol
      AND (s2.position_mode <> terms.position_mode
        OR (s2.position_mode = 1 AND o2.side <> p_side)
        OR (o2.side = p_side AND (terms.trailing_stop OR s2.trailing_stop)));

  SELECT coalesce(jsonb_agg(jsonb_build_array(ec.id, ec."group", ec.platform_type,
      own_orders IS NOT NULL AND ec."group" = ANY(once_groups)
        AND EXISTS (SELECT 1 FROM executions e
                    WHERE e.order_id = ANY(own_orders) AND e.customer_id = ec.id AND e.state IN ('pending', 'open')),
      conflict.strategy_id, conflict.reason) ORDER BY ec.id), '[]'::jsonb)
    INTO eligible
    FROM strategy_eligible_customers(p_strategy_id) ec
    LEFT JOIN LATERAL (
      SELECT o2.strategy_id,
        CASE WHEN s2.position_mode <> terms.position_mode THEN 'modes'
             WHEN s2.position_mode = 1 AND o2.side <> p_side THEN 'nets'
             ELSE 'trailing' END AS reason
      FROM executions e2
      JOIN orders o2 ON o2.id = e2.order_id
      JOIN strategies s2 ON s2.id = o2.strategy_id
      WHERE rival_orders IS NOT NULL AND e2.order_id = ANY(rival_orders)
        AND e2.customer_id = ec.id AND e2.state IN ('pending', 'open')
        AND (s2.position_mode <> terms.position_mode
          OR (s2.position_mode = 1 AND o2.side <> p_side)
          OR (ec.platform_type = 2 AND o2.side = p_side AND (terms.trailing_stop OR s2.trailing_stop)))
      ORDER BY e2.id LIMIT 1) conflict ON true;
  RETURN jsonb_build_object('orderId', new_order_id, 'symbol', terms.symbol, 'positionMode', terms.position_mode,
    'trailingStop', terms.trailing_stop, 'customers', eligible);
END
$$;
--> statement-breakpoint
-- A webhook alert, serialised per strategy (advisory lock) so a repeat (same alert id, or same body
-- hash received after p_repeat_since) is recognised even when two copies race: the signal, and for an
-- entry (p_action 'open') the Order (enqueue_order). A stale entry (p_stale_message set) stores its
-- signal as 'stale' and its entry audit (and the staff notification) instead of an Order; a close
-- only stores its signal (the caller requests the closes in the same transaction).
-- Answers {signalId, duplicate, order (enqueue_order's answer, or null)}.
CREATE OR REPLACE FUNCTION receive_alert(p_strategy_id text, p_action text, p_alert_id text, p_body_hash text, p_body text, p_source_ip text,
  p_received_at timestamptz, p_repeat_since timestamptz, p_stale_message text, p_side smallint, p_entry_type smallint,
  p_reference_price numeric, p_at timestamptz, p_only_if_empty boolean) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  repeat_id bigint;
  new_signal_id bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('strategy:' || p_strategy_id));
  SELECT id INTO repeat_id FROM signals
    WHERE strategy_id = p_strategy_id
      AND ((p_alert_id IS NOT NULL AND alert_id = p_alert_id) OR (body_hash = p_body_hash AND received_at > p_repeat_since))
    ORDER BY id DESC LIMIT 1;
  IF repeat_id IS NOT NULL THEN
    RETURN jsonb_build_object('signalId', repeat_id, 'duplicate', true, 'order', null);
  END IF;
  INSERT INTO signals (strategy_id, alert_id, body_hash, body, action, source_ip, received_at, outcome)
    VALUES (p_strategy_id, p_alert_id, p_body_hash, p_body, p_action, p_source_ip, p_received_at,
      CASE WHEN p_stale_message IS NOT NULL THEN 'stale' END)
    RETURNING id INTO new_signal_id;
  IF p_action <> 'open' THEN
    RETURN jsonb_build_object('signalId', new_signal_id, 'duplicate', false, 'order', null);
  END IF;
  IF p_stale_message IS NOT NULL THEN
    INSERT INTO entry_audits (order_id, customer_id, strategy_id, entry_type, message) VALUES (null, null, p_strategy_id, p_entry_type, p_stale_message);
    PERFORM pg_notify('staff_notifications', json_build_object('type', 1, 'message', p_stale_message)::text);
    RETURN jsonb_build_object('signalId', new_signal_id, 'duplicate', false, 'order', null);
  END IF;
  RETURN jsonb_build_object('signalId', new_signal_id, 'duplicate', false,
    'order', enqueue_order(p_strategy_id, new_signal_id, p_side, p_entry_type, true, p_reference_price, p_at, p_only_if_empty));
END
$$;
