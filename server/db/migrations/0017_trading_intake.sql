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
