-- NOTIFY at commit to the processes that keep something in memory: which channel, and what they drop.

-- Every change to a strategy row wakes the processes that cache webhook tokens -> strategies
-- (server/trading/webhook-strategies.ts): they drop their cache on this NOTIFY.
CREATE OR REPLACE FUNCTION strategies_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('strategies_changed', '');
  RETURN NULL;
END
$$;

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

-- Every process keeps resolved sessions in memory (server/modules/auth/session-cache.ts) and drops
-- an account's when PostgreSQL says, at commit, that they changed: a session revoked, expired early
-- or removed, the account's type, status or deletion changed, or it became an agent (sessions carry
-- the agent id). Whatever writes it, the trigger tells every listening process; NOTIFY sends one
-- message per account and transaction.
CREATE OR REPLACE FUNCTION session_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    PERFORM pg_notify('session_changes', 'a:' || OLD.id);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('session_changes', 'a:' || NEW.account_id);
  ELSE
    PERFORM pg_notify('session_changes', 'a:' || OLD.account_id);
    IF TG_OP = 'UPDATE' THEN
      PERFORM pg_notify('session_changes', 'a:' || NEW.account_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
