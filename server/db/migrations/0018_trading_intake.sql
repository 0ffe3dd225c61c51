CREATE TABLE "account_slices" (
	"slice" integer PRIMARY KEY NOT NULL,
	"owner" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "egress_budget_slots" (
	"exchange" text NOT NULL,
	"egress" text NOT NULL,
	"slot" bigint NOT NULL,
	"granted" integer NOT NULL,
	CONSTRAINT "egress_budget_slots_exchange_egress_slot_pk" PRIMARY KEY("exchange","egress","slot")
);
--> statement-breakpoint
CREATE TABLE "trading_workers" (
	"worker" text PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every change to a strategy row wakes the processes that cache webhook tokens -> strategies
-- (server/trading/webhook-strategies.ts): they drop their cache on this NOTIFY.
CREATE OR REPLACE FUNCTION strategies_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('strategies_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER strategies_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON strategies
  FOR EACH STATEMENT EXECUTE FUNCTION strategies_changed_notify();
--> statement-breakpoint
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
--> statement-breakpoint
-- A customer connected, or its exchange key, exchange or stored leverage/mode changed: the worker holding the
-- account warm (server/trading/accounts/warm.ts) reloads it. Payload: the customer id.
CREATE OR REPLACE FUNCTION trading_account_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('trading_accounts_changed', OLD.id::text);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'customers' THEN
    PERFORM pg_notify('trading_accounts_changed', NEW.id::text);
  ELSE
    PERFORM pg_notify('trading_accounts_changed', NEW.customer_id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trading_account_changed
  AFTER INSERT OR UPDATE OF api_key_enc, api_secret_enc, passphrase_enc, platform_type, account_id OR DELETE ON customers
  FOR EACH ROW EXECUTE FUNCTION trading_account_changed_notify();
--> statement-breakpoint
CREATE TRIGGER trading_account_settings_changed
  AFTER INSERT OR UPDATE ON exchange_account_settings
  FOR EACH ROW EXECUTE FUNCTION trading_account_changed_notify();
