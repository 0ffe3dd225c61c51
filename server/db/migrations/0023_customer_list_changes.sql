CREATE SEQUENCE "public"."customer_list_changes" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;
--> statement-breakpoint
-- Whole list answers are kept per process while nothing they show has changed
-- (server/db/settled-answers.ts). A list's counter (a sequence) moves on with every statement that
-- writes a table its rows are read from (trigger list_changed, arguments: the list's advisory key and
-- its sequence). The writer holds a shared advisory lock on every stripe (key, 0..7) from before its
-- bump until its commit is visible, so a reader that takes its own stripe exclusively knows every
-- bump it sees belongs to a committed transaction: the value it reads names data any later snapshot
-- sees (list_settled). Writers never wait for each other (shared locks); a reader never waits
-- (try-lock: null while a change is in flight, and the list is read through); readers on different
-- connections take different stripes.
CREATE FUNCTION list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  FOR stripe IN 0..7 LOOP
    PERFORM pg_advisory_xact_lock_shared(TG_ARGV[0]::integer, stripe);
  END LOOP;
  PERFORM nextval(TG_ARGV[1]::regclass);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The lock first, then the value (plpgsql runs them in order); held until the caller's statement ends
-- (called alone, outside any transaction). Null until the first change too.
CREATE FUNCTION list_settled(p_key integer, p_sequence regclass) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(p_key, pg_backend_pid() % 8) THEN
    RETURN NULL;
  END IF;
  RETURN pg_sequence_last_value(p_sequence);
END
$$;
--> statement-breakpoint
-- Customer lists (staff list, name search, an agent's own list): customers and every table joined
-- into their rows.
CREATE FUNCTION customer_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727100, 'customer_list_changes')::text
$$;
--> statement-breakpoint
CREATE TRIGGER customers_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER accounts_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER countries_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON countries
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER agents_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agents
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER registration_ids_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON registration_ids
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
