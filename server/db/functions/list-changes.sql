-- Whole list answers are kept per process while nothing they show has changed
-- (server/db/settled-answers.ts). A list's counter (a sequence) moves on with every statement that
-- writes a table its rows are read from (trigger list_changed, arguments: the list's advisory key and
-- its sequence). The writer holds a shared advisory lock on every stripe (key, 0..7) from before its
-- bump until its commit is visible, so a reader that takes its own stripe exclusively knows every
-- bump it sees belongs to a committed transaction: the value it reads names data any later snapshot
-- sees (list_settled). Writers never wait for each other (shared locks); a reader never waits
-- (try-lock: null while a change is in flight, and the list is read through); readers on different
-- connections take different stripes.
-- Keys: 727100 the customer lists (customer_list_changes), 727101 the order and audit searches
-- (activity_list_changes), 727102 the customers' figures, wallet and transaction count
-- (customer_figure_changes: a kept customer list answer is still good after such a change when its own
-- rows' figures are unchanged, server/modules/customers/repository.ts).

CREATE OR REPLACE FUNCTION list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  FOR stripe IN 0..7 LOOP
    PERFORM pg_advisory_xact_lock_shared(TG_ARGV[0]::integer, stripe);
  END LOOP;
  PERFORM nextval(TG_ARGV[1]::regclass);
  RETURN NULL;
END
$$;

-- The lock first, then the value (plpgsql runs them in order); held until the caller's statement ends
-- (called alone, outside any transaction). Null until the first change too.
CREATE OR REPLACE FUNCTION list_settled(p_key integer, p_sequence regclass) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(p_key, pg_backend_pid() % 8) THEN
    RETURN NULL;
  END IF;
  RETURN pg_sequence_last_value(p_sequence);
END
$$;

-- "lists/figures"; null while a change of either is in flight.
CREATE OR REPLACE FUNCTION customer_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727100, 'customer_list_changes') || '/' || list_settled(727102, 'customer_figure_changes')
$$;

-- The order search: orders, executions (an order's "closing"), strategies (its symbol) and the audits
-- move this counter.
CREATE OR REPLACE FUNCTION order_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727101, 'activity_list_changes')::text
$$;

-- The entry and exit audit searches: an audit row also shows its customer and agent, so both counters.
CREATE OR REPLACE FUNCTION audit_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727100, 'customer_list_changes') || '.' || list_settled(727101, 'activity_list_changes')
$$;
