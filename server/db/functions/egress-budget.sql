-- What every process on one egress address (EXCHANGE_EGRESS) shares through PostgreSQL so that together
-- they stay under the exchange's per-address ceilings (server/trading/exchanges/egress-budget.ts).

-- Leases up to p_want request tokens of an exchange's per-address budget for the current slot
-- (p_window_ms / p_slots long): answers how many were granted (0 when the window is spent) and the
-- milliseconds left in the slot (tokens are spent within it, or not at all). The
-- window counted is the last p_slots + 1 slots, so a token granted anywhere in the oldest slot is
-- still counted while it can be inside the exchange's window. Serialised per address.
CREATE OR REPLACE FUNCTION lease_egress_tokens(p_exchange text, p_egress text, p_want integer, p_cap integer, p_window_ms integer, p_slots integer,
  OUT granted_now integer, OUT ms_left integer) LANGUAGE plpgsql AS $$
DECLARE
  slot_ms bigint := greatest(1, p_window_ms / p_slots);
  now_ms bigint;
  current_slot bigint;
  used integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('egress:' || p_exchange || ':' || p_egress));
  now_ms := floor(extract(epoch from clock_timestamp()) * 1000);
  current_slot := now_ms / slot_ms;
  ms_left := (current_slot + 1) * slot_ms - now_ms;
  SELECT coalesce(sum(granted), 0) INTO used FROM egress_budget_slots
    WHERE exchange = p_exchange AND egress = p_egress AND slot >= current_slot - p_slots;
  granted_now := least(p_want, p_cap - used);
  IF granted_now <= 0 THEN
    granted_now := 0;
    RETURN;
  END IF;
  INSERT INTO egress_budget_slots (exchange, egress, slot, granted) VALUES (p_exchange, p_egress, current_slot, granted_now)
    ON CONFLICT (exchange, egress, slot) DO UPDATE SET granted = egress_budget_slots.granted + excluded.granted;
  DELETE FROM egress_budget_slots WHERE exchange = p_exchange AND egress = p_egress AND slot < current_slot - 2 * p_slots;
END
$$;

-- One round of a process's part of an exchange's per-address window (server/trading/exchanges/egress-share.ts).
-- The process reports what it must still have counted (p_held: the larger of its window's limit and the
-- requests in that window, which the exchange may still count) and how much it wants; it is answered what it
-- may size its window to (may_hold, counted here from now on) and its fair part (fair_part: the ceiling
-- shared max-min fair over what the live holders want, what nobody wants split equally). A holder grows
-- towards what it wants, up to its fair part, only out of what no other holder holds, so the live holders
-- never hold more than the ceiling together; one above that shrinks its own window and reports less once
-- it drained.
-- A row lapses p_ttl_ms after its holder's last round: by then the holder's last requests have left the
-- exchange's window, or it stopped sending (server/trading/exchanges/egress-share.ts).
CREATE OR REPLACE FUNCTION share_egress_window(p_exchange text, p_egress text, p_holder text, p_wanted integer, p_held integer,
  p_cap integer, p_ttl_ms integer, OUT may_hold integer, OUT fair_part integer) LANGUAGE plpgsql AS $$
DECLARE
  r record;
  holders integer;
  unshared integer := p_cap;
  left_to_share integer;
  part integer;
  mine integer := 0;
  held_by_others integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('egress-share:' || p_exchange || ':' || p_egress));
  DELETE FROM egress_shares s WHERE s.exchange = p_exchange AND s.egress = p_egress AND s.expires_at < clock_timestamp();
  may_hold := greatest(p_held, 0);
  INSERT INTO egress_shares AS s (exchange, egress, holder, capacity, wanted, expires_at)
    VALUES (p_exchange, p_egress, p_holder, may_hold, greatest(p_wanted, 0), clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0))
    ON CONFLICT (exchange, egress, holder) DO UPDATE SET capacity = excluded.capacity, wanted = excluded.wanted, expires_at = excluded.expires_at;
  SELECT count(*)::integer, coalesce(sum(s.capacity) FILTER (WHERE s.holder <> p_holder), 0)::integer INTO holders, held_by_others
    FROM egress_shares s WHERE s.exchange = p_exchange AND s.egress = p_egress;
  left_to_share := holders;
  FOR r IN SELECT s.holder, s.wanted FROM egress_shares s WHERE s.exchange = p_exchange AND s.egress = p_egress ORDER BY s.wanted, s.holder LOOP
    part := least(r.wanted, unshared / left_to_share);
    IF r.holder = p_holder THEN mine := part; END IF;
    unshared := unshared - part;
    left_to_share := left_to_share - 1;
  END LOOP;
  fair_part := mine + unshared / holders;
  IF least(fair_part, p_wanted) > may_hold AND p_cap - held_by_others > may_hold THEN
    may_hold := least(fair_part, p_wanted, p_cap - held_by_others);
    UPDATE egress_shares s SET capacity = may_hold WHERE s.exchange = p_exchange AND s.egress = p_egress AND s.holder = p_holder;
  END IF;
END
$$;
