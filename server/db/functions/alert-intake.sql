-- Alert intake: an entry alert is one statement committed on its own (server/trading/intake.ts,
-- enqueue.ts). receive_alert stores the signal and, unless it repeats one, is stale or paused, opens the
-- Order (open_order: enqueue_order, then queue_order, which queues its executions, audits the skipped
-- customers and answers the contexts of the executions claimed by the calling process's dispatcher, the
-- in-process hand-off). The texts of the audits come from the caller (p_messages: 'once' by group with
-- {strategy} for the alert's strategy, 'conflict' by reason with {symbol} and {other} for the other
-- strategy's id, 'paused' by scope), so they are written in one place (server/trading/position-sharing.ts,
-- enqueue.ts, pauses.ts); the fallbacks keep a pause in force for a caller that does not send them.
-- Enumerations used below, by name (contract/enums.ts): AccountStatus.Active = 3; CustomerGroup.Internal
-- = 2, Exclusive = 5; Exchange.Bitget = 1, Bybit = 2; PositionMode.OneWay = 1; OrderStatus.Active = 1,
-- Win = 2, Loss = 3; NotificationType.EntryFailure = 1. SQLSTATE CT001 ('the alert has customers') is
-- raised by enqueue_order when asked to run only for an Order without eligible customers.
-- Of these functions only queue_order writes executions (the engine's other writes of the table are in
-- server/trading/execution-state/, tests/engine/boundaries.test.ts).

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

-- The eligible customers of a strategy (ARCHITECTURE 6 "eligible"), read from the customers table alone:
-- its copies of the account (account_live: not deleted and of type Customer; account_status, kept by the
-- accounts triggers, customer-copies.sql) stand in for the join with accounts, which was planned as a
-- nested loop over every live account per customer whenever the statistics were stale.
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

-- Opens the Order and answers its eligible customers, each as [id, group, platform, blocked by Receive
-- Webhook Once, conflicting strategy, conflict reason, copying paused], under the position locks of the
-- strategy's symbol for its customers (advisory, 256 stripes). Live executions belong to Active orders
-- (an Order settles once none of its executions is live), so the checks look only at the executions of
-- a few Active orders, not at every customer's history.
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
    LEFT JOIN trading_pauses paused ON paused.customer_id = ec.id AND (paused.resume_at IS NULL OR paused.resume_at > now())
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

-- The entry's client order id, as server/trading/exchanges/client-order-id.ts builds it (leg 'e');
-- tests/engine/queued-wakeup.test.ts holds the two to the same answer.
CREATE OR REPLACE FUNCTION entry_client_order_id(p_order_id integer, p_customer_id integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT 'ct' || p_order_id || '-' || p_customer_id || '-e'
$$;

-- Everything one execution needs (server/trading/context.ts reads it by name), for the given ids, as a
-- table: {"columns": [names], "rows": [[values in that order], ...]}, rows by id (column names in every
-- row were most of the JSON: 5,000 contexts ~6 MB against ~2 MB). shared_slot: another live execution
-- of the customer on the same symbol and side; its lookup starts from the customer's own executions.
CREATE OR REPLACE FUNCTION execution_contexts(p_ids integer[]) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object('columns', json_build_array(
    'id', 'order_id', 'customer_id', 'client_order_id', 'state', 'attempts', 'deadline_at', 'close_requested_at', 'claimed_by', 'entry_window_s',
    'exit_type', 'protected_at', 'quantity', 'entry_price', 'closed_qty', 'realized_pnl', 'legs', 'stop_loss_price', 'stop_moved_to_entry', 'last_mark_price',
    'reference_price', 'side', 'entry_type', 'strategy_id', 'account_id', 'platform_type', 'api_key_enc', 'api_secret_enc', 'passphrase_enc', 'invest_type',
    'invest_amount', 'symbol', 'leverage', 'position_mode', 'take_profit_type', 'take_profit_mode', 'tp1_target_level', 'tp1_close_volume', 'tp2_target_level', 'tp2_close_volume',
    'tp3_target_level', 'stop_loss_type', 'stop_loss_amount', 'advance_stop_loss', 'trailing_stop', 'activation_type', 'activation_amount', 'close_type', 'close_amount', 'shared_slot', 'max_slippage_bps',
    'guard_max_notional_usdt', 'guard_max_leverage', 'guard_max_open_positions', 'guard_min_free_balance_usdt'),
    'rows', (SELECT coalesce(json_agg(json_build_array(
      x.id, x.order_id, x.customer_id, x.client_order_id, x.state, x.attempts, x.deadline_at, x.close_requested_at, x.claimed_by, x.entry_window_s,
      x.exit_type, x.protected_at, x.quantity, x.entry_price, x.closed_qty, x.realized_pnl, x.legs, x.stop_loss_price, x.stop_moved_to_entry, x.last_mark_price,
      x.reference_price, x.side, x.entry_type, x.strategy_id, x.account_id, x.platform_type, x.api_key_enc, x.api_secret_enc, x.passphrase_enc, x.invest_type,
      x.invest_amount, x.symbol, x.leverage, x.position_mode, x.take_profit_type, x.take_profit_mode, x.tp1_target_level, x.tp1_close_volume, x.tp2_target_level, x.tp2_close_volume,
      x.tp3_target_level, x.stop_loss_type, x.stop_loss_amount, x.advance_stop_loss, x.trailing_stop, x.activation_type, x.activation_amount, x.close_type, x.close_amount, x.shared_slot, x.max_slippage_bps,
      x.guard_max_notional_usdt, x.guard_max_leverage, x.guard_max_open_positions, x.guard_min_free_balance_usdt) ORDER BY x.id), '[]'::json) FROM (
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
                AND (SELECT s2.symbol FROM strategies s2 WHERE s2.id = o2.strategy_id) = s.symbol) AS shared_slot,
      s.max_slippage_bps, cg.max_notional_usdt AS guard_max_notional_usdt, cg.max_leverage AS guard_max_leverage,
      cg.max_open_positions AS guard_max_open_positions, cg.min_free_balance_usdt AS guard_min_free_balance_usdt
    FROM executions e
    JOIN orders o ON o.id = e.order_id
    JOIN strategies s ON s.id = o.strategy_id
    JOIN customers c ON c.id = e.customer_id
    LEFT JOIN strategy_groups g ON g.strategy_id = s.id AND g."group" = c."group"
    LEFT JOIN strategy_groups gi ON gi.strategy_id = s.id AND gi."group" = 2
    LEFT JOIN customer_guards cg ON cg.customer_id = c.id
    WHERE e.id = ANY(p_ids)) x));
END
$$;

-- The eligible customers enqueue_order answered, in its order, with their lane and, for those skipped,
-- the audit's text from p_messages: a paused customer first, then Receive Webhook Once, then a conflict.
CREATE OR REPLACE FUNCTION opened_customers(p_opened jsonb, p_strategy_id text, p_messages jsonb) RETURNS TABLE (id integer, lane text, skip_message text, n bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT (r->>0)::integer, CASE WHEN (r->>2)::smallint = 2 THEN 'bybit' ELSE 'bitget' END,
    CASE WHEN (r->>6)::boolean THEN coalesce(p_messages->'paused'->>'customer', 'Entry skipped: customer paused')
         WHEN (r->>3)::boolean THEN replace(p_messages->'once'->>(r->>1), '{strategy}', p_strategy_id)
         WHEN r->>4 IS NOT NULL AND r->>5 IS NOT NULL THEN replace(replace(p_messages->'conflict'->>(r->>5), '{symbol}', p_opened->>'symbol'), '{other}', r->>4) END,
    t.n
  FROM jsonb_array_elements(p_opened->'customers') WITH ORDINALITY AS t(r, n)
$$;

-- The rest of an Order enqueue_order opened (p_opened is its answer): one pending execution per eligible
-- customer not skipped, each with its entry client order id, due at once; the skipped ones' entry audits
-- and one staff notification; the Order settled when nobody is left. p_claim (null: none) names the
-- calling process's dispatcher: worker, leaseS, room per lane ({"bybit": n, "bitget": m}) and the
-- account slices it owns (customer id % 64; null: all). The first `room` of each lane's owned customers
-- are queued already claimed (a lease, first attempt); the contexts of the first p_claim.answer of them
-- are answered (unset: all), the ids of the others as 'claimedLater', read by the dispatcher after the
-- commit while the first entries are sent. When any are left unclaimed every dispatcher is woken
-- (NOTIFY, sent on commit). With `budget` (per lane: egress and the terms of lease_egress_tokens) the
-- address's shared request budget is leased for the claimed entries in the same statement (answered as
-- 'leases': granted and msLeft per lane).
CREATE OR REPLACE FUNCTION queue_order(p_opened jsonb, p_strategy_id text, p_entry_type smallint, p_deadline_s float8, p_at timestamptz,
  p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  the_order integer := (p_opened->>'orderId')::integer;
  instant timestamptz := coalesce(p_at, now());
  slices integer[] := CASE WHEN jsonb_typeof(p_claim->'slices') = 'array'
                           THEN ARRAY(SELECT jsonb_array_elements_text(p_claim->'slices')::integer) END;
  queued integer;
  claimed_ids integer[];
  answered integer;
  claimed_lanes jsonb;
  contexts json;
  leases json;
  skipped integer;
BEGIN
  IF jsonb_array_length(p_opened->'customers') = 0 THEN
    RETURN json_build_object('orderId', the_order, 'executions', 0, 'skipped', 0, 'claimed', '[]'::json, 'claimedLater', '[]'::json, 'leases', '{}'::json);
  END IF;
  WITH candidates AS (
    SELECT o.id, o.lane, o.n, (p_claim IS NOT NULL AND (slices IS NULL OR o.id % 64 = ANY(slices))) AS claimable
    FROM opened_customers(p_opened, p_strategy_id, p_messages) o WHERE o.skip_message IS NULL),
  chosen AS (
    SELECT c.id, c.lane, c.n, c.claimable
      AND row_number() OVER (PARTITION BY c.lane, c.claimable ORDER BY c.n) <= coalesce((p_claim->'room'->>c.lane)::integer, 0) AS claimed
    FROM candidates c),
  inserted AS (
    INSERT INTO executions (order_id, customer_id, client_order_id, deadline_at, next_attempt_at, created_at, updated_at, claimed_by, claim_expires_at, attempts)
    SELECT the_order, c.id, entry_client_order_id(the_order, c.id), instant + make_interval(secs => p_deadline_s), instant, instant, instant,
      CASE WHEN c.claimed THEN p_claim->>'worker' END,
      CASE WHEN c.claimed THEN now() + make_interval(secs => (p_claim->>'leaseS')::float8) END,
      CASE WHEN c.claimed THEN 1 ELSE 0 END
    FROM chosen c ORDER BY c.n
    RETURNING executions.id, executions.claimed_by)
  SELECT count(*), array_agg(i.id ORDER BY i.id) FILTER (WHERE i.claimed_by IS NOT NULL),
    (SELECT jsonb_object_agg(lane, n) FROM (SELECT c.lane, count(*) AS n FROM chosen c WHERE c.claimed GROUP BY c.lane) per_lane)
    INTO queued, claimed_ids, claimed_lanes FROM inserted i;

  skipped := jsonb_array_length(p_opened->'customers') - queued;
  IF skipped > 0 THEN
    INSERT INTO entry_audits (order_id, customer_id, strategy_id, entry_type, message, datetime_inserted)
      SELECT the_order, o.id, p_strategy_id, p_entry_type, o.skip_message, instant
      FROM opened_customers(p_opened, p_strategy_id, p_messages) o WHERE o.skip_message IS NOT NULL ORDER BY o.n;
    PERFORM pg_notify('staff_notifications', json_build_object('type', 1, 'message', skipped || ' entries of strategy ' || p_strategy_id || ' skipped')::text);
  END IF;
  IF queued = 0 THEN
    PERFORM finish_order_if_done(the_order, p_at);
  ELSIF queued > coalesce(cardinality(claimed_ids), 0) THEN
    PERFORM pg_notify('executions_ready', the_order::text);
  END IF;
  answered := least(coalesce((p_claim->>'answer')::integer, cardinality(claimed_ids)), cardinality(claimed_ids));
  contexts := CASE WHEN claimed_ids IS NULL THEN '[]'::json ELSE execution_contexts(claimed_ids[1:answered]) END;
  -- Last: the address's budget stays locked (lease_egress_tokens) only until the alert commits.
  IF claimed_lanes IS NOT NULL AND jsonb_typeof(p_claim->'budget') = 'object' THEN
    SELECT json_object_agg(l.key, json_build_object('granted', g.granted_now, 'msLeft', g.ms_left)) INTO leases
    FROM jsonb_each_text(claimed_lanes) l
    CROSS JOIN LATERAL (SELECT p_claim->'budget'->l.key AS t) terms
    CROSS JOIN LATERAL lease_egress_tokens(l.key, terms.t->>'egress', least(l.value::integer, (terms.t->>'maxBatch')::integer),
      (terms.t->>'limit')::integer, (terms.t->>'windowMs')::integer, (terms.t->>'slots')::integer) g
    WHERE terms.t IS NOT NULL;
  END IF;
  RETURN json_build_object('orderId', the_order, 'executions', queued, 'skipped', skipped, 'claimed', contexts,
    'claimedLater', coalesce(array_to_json(claimed_ids[answered + 1:]), '[]'::json), 'leases', coalesce(leases, '{}'::json));
END
$$;

-- One Order of a strategy and its executions (enqueue_order, then queue_order): manual long/short and,
-- through receive_alert, webhook entries.
CREATE OR REPLACE FUNCTION open_order(p_strategy_id text, p_signal_id bigint, p_side smallint, p_entry_type smallint, p_receive_once boolean,
  p_reference_price numeric, p_at timestamptz, p_deadline_s float8, p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
BEGIN
  RETURN queue_order(enqueue_order(p_strategy_id, p_signal_id, p_side, p_entry_type, p_receive_once, p_reference_price, p_at, false),
    p_strategy_id, p_entry_type, p_deadline_s, p_at, p_claim, p_messages);
END
$$;

-- A webhook alert: a repeat (same alert id, or same body within the repeat window) answers the first
-- signal and does nothing; otherwise the signal is stored. An entry alert of a paused strategy, or any
-- entry alert while the platform is paused (trading_pauses), is stored with outcome 'paused', audited
-- once with the reason and opens no Order; a stale one likewise ('stale', and staff are notified);
-- close alerts go on.
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
