-- An entry alert is one statement committed on its own: receive_alert stores the signal and opens the
-- Order (enqueue_order, migration alert_intake_functions), then queue_order queues its executions,
-- audits the skipped customers and answers the contexts of the executions claimed by the calling
-- process's dispatcher (the in-process hand-off). The texts of the skip audits come from the caller
-- (p_messages: 'once' by group with {strategy} for the alert's strategy, 'conflict' by reason with {symbol}
-- and {other} for the other strategy's id), so they are written in one place (server/trading/position-sharing.ts, enqueue.ts).
-- The entry's client order id, as server/trading/exchanges/client-order-id.ts builds it (leg 'e');
-- tests/engine/queued-wakeup.test.ts holds the two to the same answer.
CREATE FUNCTION entry_client_order_id(p_order_id integer, p_customer_id integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT 'ct' || p_order_id || '-' || p_customer_id || '-e'
$$;
--> statement-breakpoint
-- Everything one execution needs (server/trading/context.ts reads it), for the given ids, by id, as a
-- JSON array. shared_slot: another live execution of the customer on the same symbol and side; its
-- lookup starts from the customer's own executions (the strategy's symbol read per execution: with the
-- strategies joined, stale statistics had it start from every strategy on the symbol, 0.3 ms per 100).
CREATE FUNCTION execution_contexts(p_ids integer[]) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(json_agg(x ORDER BY x.id), '[]'::json) FROM (
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
    WHERE e.id = ANY(p_ids)) x);
END
$$;
--> statement-breakpoint
-- The eligible customers enqueue_order answered ([id, group, platform, blocked by Receive Webhook Once,
-- conflicting strategy, conflict reason]), in its order, with their lane and, for those skipped, the
-- audit's text from p_messages.
CREATE FUNCTION opened_customers(p_opened jsonb, p_strategy_id text, p_messages jsonb) RETURNS TABLE (id integer, lane text, skip_message text, n bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT (r->>0)::integer, CASE WHEN (r->>2)::smallint = 2 THEN 'bybit' ELSE 'bitget' END,
    CASE WHEN (r->>3)::boolean THEN replace(p_messages->'once'->>(r->>1), '{strategy}', p_strategy_id)
         WHEN r->>4 IS NOT NULL AND r->>5 IS NOT NULL THEN replace(replace(p_messages->'conflict'->>(r->>5), '{symbol}', p_opened->>'symbol'), '{other}', r->>4) END,
    t.n
  FROM jsonb_array_elements(p_opened->'customers') WITH ORDINALITY AS t(r, n)
$$;
--> statement-breakpoint
-- The rest of an Order enqueue_order opened (p_opened is its answer): one pending execution per eligible
-- customer not skipped, each with its entry client order id, due at once; the skipped ones' entry audits
-- and one staff notification; the Order settled when nobody is left. p_claim (null: none) names the
-- calling process's dispatcher: worker, leaseS, room per lane ({"bybit": n, "bitget": m}) and the
-- account slices it owns (customer id % 64; null: all). The first `room` of each lane's owned customers
-- are queued already claimed (a lease, first attempt) and their contexts answered; when any are left
-- unclaimed every dispatcher is woken (NOTIFY, sent on commit). With `budget` (per lane: egress and the
-- terms of lease_egress_tokens, migration trading_intake) the address's shared request budget is leased
-- for the claimed entries in the same statement, so their first requests need no lease of their own
-- (answered as 'leases': granted and msLeft per lane).
CREATE FUNCTION queue_order(p_opened jsonb, p_strategy_id text, p_entry_type smallint, p_deadline_s float8, p_at timestamptz,
  p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  the_order integer := (p_opened->>'orderId')::integer;
  instant timestamptz := coalesce(p_at, now());
  slices integer[] := CASE WHEN jsonb_typeof(p_claim->'slices') = 'array'
                           THEN ARRAY(SELECT jsonb_array_elements_text(p_claim->'slices')::integer) END;
  queued integer;
  claimed_ids integer[];
  claimed_lanes jsonb;
  contexts json;
  leases json;
  skipped integer;
BEGIN
  IF jsonb_array_length(p_opened->'customers') = 0 THEN
    RETURN json_build_object('orderId', the_order, 'executions', 0, 'skipped', 0, 'claimed', '[]'::json, 'leases', '{}'::json);
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
  contexts := CASE WHEN claimed_ids IS NULL THEN '[]'::json ELSE execution_contexts(claimed_ids) END;
  -- Last: the address's budget stays locked (lease_egress_tokens) only until the alert commits.
  IF claimed_lanes IS NOT NULL AND jsonb_typeof(p_claim->'budget') = 'object' THEN
    SELECT json_object_agg(l.key, json_build_object('granted', g.granted_now, 'msLeft', g.ms_left)) INTO leases
    FROM jsonb_each_text(claimed_lanes) l
    CROSS JOIN LATERAL (SELECT p_claim->'budget'->l.key AS t) terms
    CROSS JOIN LATERAL lease_egress_tokens(l.key, terms.t->>'egress', least(l.value::integer, (terms.t->>'maxBatch')::integer),
      (terms.t->>'limit')::integer, (terms.t->>'windowMs')::integer, (terms.t->>'slots')::integer) g
    WHERE terms.t IS NOT NULL;
  END IF;
  RETURN json_build_object('orderId', the_order, 'executions', queued, 'skipped', skipped, 'claimed', contexts, 'leases', coalesce(leases, '{}'::json));
END
$$;
--> statement-breakpoint
-- One Order of a strategy and its executions (enqueue_order, then queue_order): manual long/short and,
-- through receive_alert, webhook entries.
CREATE FUNCTION open_order(p_strategy_id text, p_signal_id bigint, p_side smallint, p_entry_type smallint, p_receive_once boolean,
  p_reference_price numeric, p_at timestamptz, p_deadline_s float8, p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
BEGIN
  RETURN queue_order(enqueue_order(p_strategy_id, p_signal_id, p_side, p_entry_type, p_receive_once, p_reference_price, p_at, false),
    p_strategy_id, p_entry_type, p_deadline_s, p_at, p_claim, p_messages);
END
$$;
--> statement-breakpoint
DROP FUNCTION receive_alert(text, text, text, text, text, text, timestamptz, timestamptz, text, smallint, smallint, numeric, timestamptz, boolean);
--> statement-breakpoint
-- receive_alert as in migration alert_intake_functions, an entry's Order queued through open_order.
CREATE FUNCTION receive_alert(p_strategy_id text, p_action text, p_alert_id text, p_body_hash text, p_body text, p_source_ip text,
  p_received_at timestamptz, p_repeat_since timestamptz, p_stale_message text, p_side smallint, p_entry_type smallint,
  p_reference_price numeric, p_at timestamptz, p_deadline_s float8, p_claim jsonb, p_messages jsonb) RETURNS json LANGUAGE plpgsql AS $$
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
    RETURN json_build_object('signalId', repeat_id, 'duplicate', true, 'order', null);
  END IF;
  INSERT INTO signals (strategy_id, alert_id, body_hash, body, action, source_ip, received_at, outcome)
    VALUES (p_strategy_id, p_alert_id, p_body_hash, p_body, p_action, p_source_ip, p_received_at,
      CASE WHEN p_stale_message IS NOT NULL THEN 'stale' END)
    RETURNING id INTO new_signal_id;
  IF p_action <> 'open' THEN
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
-- A customer's live executions by one index: with the customer alone, stale statistics had the planner
-- AND it with executions_open_idx, reading every live execution once per execution (quadratic in a fan-out).
CREATE INDEX "executions_customer_state_idx" ON "executions" USING btree ("customer_id", "state");
--> statement-breakpoint
DROP INDEX "executions_customer_idx";
