-- queue_order (migration alert_in_one_statement) answers the contexts of the first p_claim.answer claimed
-- executions only (unset: all), and the ids of the others ('claimedLater'), whose contexts the dispatcher
-- reads right after the commit while the first entries are being sent. Reading 5,000 contexts was half of
-- the alert's statement (0.14 of 0.3 s), and no order could leave before that statement committed.
-- Nothing else changes: the executions are queued and claimed exactly as before.
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
