-- Kill switches (issue 29, table trading_pauses of migration kill_switches) where alerts become executions.
-- receive_alert: an entry alert of a paused strategy, or any entry alert while the platform is paused, is
-- stored as a signal (outcome 'paused'), audited once with the reason and opens no Order; close alerts
-- go on. enqueue_order answers a seventh element per customer, whether that customer's copying is
-- paused (joined by the pauses' customer index), and
-- opened_customers skips those first, so queue_order audits them like any other skipped customer. The
-- texts come from the caller (p_messages->'paused', server/trading/pauses.ts); the fallbacks keep a
-- pause in force for a caller that does not send them.
CREATE OR REPLACE FUNCTION receive_alert(p_strategy_id text, p_action text, p_alert_id text, p_body_hash text, p_body text, p_source_ip text,
  p_received_at timestamptz, p_repeat_since timestamptz, p_stale_message text, p_side smallint, p_entry_type smallint,
  p_reference_price numeric, p_at timestamptz, p_deadline_s float8, p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  repeat_id bigint;
  new_signal_id bigint;
  pause_message text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('strategy:' || p_strategy_id));
  SELECT id INTO repeat_id FROM signals
    WHERE strategy_id = p_strategy_id
      AND ((p_alert_id IS NOT NULL AND alert_id = p_alert_id) OR (body_hash = p_body_hash AND received_at > p_repeat_since))
    ORDER BY id DESC LIMIT 1;
  IF repeat_id IS NOT NULL THEN
    RETURN json_build_object('signalId', repeat_id, 'duplicate', true, 'order', null);
  END IF;
  IF p_action = 'open' THEN
    IF EXISTS (SELECT 1 FROM trading_pauses p WHERE p.scope = 'platform') THEN
      pause_message := coalesce(p_messages->'paused'->>'platform', 'Webhook alert skipped: platform paused');
    ELSIF EXISTS (SELECT 1 FROM trading_pauses p WHERE p.strategy_id = p_strategy_id) THEN
      pause_message := coalesce(p_messages->'paused'->>'strategy', 'Webhook alert skipped: strategy paused');
    END IF;
  END IF;
  INSERT INTO signals (strategy_id, alert_id, body_hash, body, action, source_ip, received_at, outcome)
    VALUES (p_strategy_id, p_alert_id, p_body_hash, p_body, p_action, p_source_ip, p_received_at,
      CASE WHEN pause_message IS NOT NULL THEN 'paused' WHEN p_stale_message IS NOT NULL THEN 'stale' END)
    RETURNING id INTO new_signal_id;
  IF p_action <> 'open' THEN
    RETURN json_build_object('signalId', new_signal_id, 'duplicate', false, 'order', null);
  END IF;
  IF pause_message IS NOT NULL THEN
    INSERT INTO entry_audits (order_id, customer_id, strategy_id, entry_type, message) VALUES (null, null, p_strategy_id, p_entry_type, pause_message);
    RETURN json_build_object('signalId', new_signal_id, 'duplicate', false, 'order', null);
  END IF;
  IF p_stale_message IS NOT NULL THEN
    INSERT INTO entry_audits (order_id, customer_id, strategy_id, entry_type, message) VALUES (null, null, p_strategy_id, p_entry_type, p_stale_message);
    PERFORM pg_notify('staff_notifications', json_build_object('type', 1, 'message', p_stale_message)::text);
    RETURN json_build_object('signalId', new_signal_id, 'duplicate', false, 'order', null);
  END IF;
  RETURN json_build_object('signalId', new_signal_id, 'duplicate', false,
    'order', open_order(p_strategy_id, new_signal_id, p_side, p_entry_type, true, p_reference_price, p_at, p_deadline_s, p_claim, p_messages));
END
$$;
--> statement-breakpoint
-- enqueue_order as in migration eligible_customers_from_copies, with the customers' pauses.
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
      own_orders IS NOT NULL AND coalesce(ec."group" = ANY(once_groups), false)
        AND EXISTS (SELECT 1 FROM executions e
                    WHERE e.order_id = ANY(own_orders) AND e.customer_id = ec.id AND e.state IN ('pending', 'open')),
      conflict.strategy_id, conflict.reason, paused.id IS NOT NULL) ORDER BY ec.id), '[]'::jsonb)
    INTO eligible
    FROM strategy_eligible_customers(p_strategy_id) ec
    LEFT JOIN trading_pauses paused ON paused.customer_id = ec.id
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
-- opened_customers as in migration alert_in_one_statement, a paused customer skipped first.
CREATE OR REPLACE FUNCTION opened_customers(p_opened jsonb, p_strategy_id text, p_messages jsonb) RETURNS TABLE (id integer, lane text, skip_message text, n bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT (r->>0)::integer, CASE WHEN (r->>2)::smallint = 2 THEN 'bybit' ELSE 'bitget' END,
    CASE WHEN (r->>6)::boolean THEN coalesce(p_messages->'paused'->>'customer', 'Entry skipped: customer paused')
         WHEN (r->>3)::boolean THEN replace(p_messages->'once'->>(r->>1), '{strategy}', p_strategy_id)
         WHEN r->>4 IS NOT NULL AND r->>5 IS NOT NULL THEN replace(replace(p_messages->'conflict'->>(r->>5), '{symbol}', p_opened->>'symbol'), '{other}', r->>4) END,
    t.n
  FROM jsonb_array_elements(p_opened->'customers') WITH ORDINALITY AS t(r, n)
$$;
