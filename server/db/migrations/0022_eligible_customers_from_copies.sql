-- The eligible customers of a strategy read from the customers table alone: its copies of the account
-- (account_live: not deleted and of type Customer; account_status), kept in the same statement by the
-- accounts triggers (migration customer_name_sync), stand in for the join with accounts. The join was
-- planned as a nested loop over every live account per customer whenever the statistics were stale
-- (customers just added): ~1.4 ms for 100 customers, twice per alert, under the position locks.
-- Same rule as before (ARCHITECTURE 6 "eligible"); AccountStatus.Active = 3, CustomerGroup.Internal = 2,
-- Exclusive = 5, Exchange.Bitget = 1, Bybit = 2.
CREATE OR REPLACE FUNCTION strategy_eligible_customers(p_strategy_id text) RETURNS TABLE (id integer, "group" smallint, platform_type smallint)
LANGUAGE sql STABLE AS $$
  SELECT c.id, c."group", c.platform_type
  FROM customers c
  WHERE c.account_live AND c.account_status = 3
    AND c.platform_type IN (1, 2) AND c.api_key_enc IS NOT NULL AND c.api_secret_enc IS NOT NULL
    AND ((c."group" <> 5 AND c."group" IN (SELECT g."group" FROM strategy_groups g WHERE g.strategy_id = p_strategy_id))
      OR (c."group" = 5
          AND c.id = (SELECT s.exclusive_customer_id FROM strategies s WHERE s.id = p_strategy_id)
          AND EXISTS (SELECT 1 FROM strategy_groups g WHERE g.strategy_id = p_strategy_id AND g."group" = 5)
          AND EXISTS (SELECT 1 FROM strategy_groups g WHERE g.strategy_id = p_strategy_id AND g."group" = 2)))
$$;
--> statement-breakpoint
-- enqueue_order as in migration alert_intake_functions, but a customer whose group does not have
-- Receive Webhook Once on (once_groups null when no group has) no longer has its live executions
-- looked up: "group = ANY(null)" is null, not false, so AND went on to the EXISTS for every customer.
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
