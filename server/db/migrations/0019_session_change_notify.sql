-- Every process keeps resolved sessions in memory (server/modules/auth/session-cache.ts) and drops
-- an account's when PostgreSQL says, at commit, that they changed: a session revoked, expired early
-- or removed, or the account's type, status or deletion changed. Whatever writes it, the trigger
-- tells every listening process; NOTIFY sends one message per account and transaction.
CREATE OR REPLACE FUNCTION session_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('session_changes', 'a:' || OLD.account_id);
  ELSE
    PERFORM pg_notify('session_changes', 'a:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_change_notify
  AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_change_notify();
--> statement-breakpoint
CREATE TRIGGER accounts_sign_in_change_notify
  AFTER UPDATE OF account_type, status, deleted_at ON accounts
  FOR EACH ROW WHEN (OLD.account_type IS DISTINCT FROM NEW.account_type OR OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION session_change_notify();
--> statement-breakpoint
CREATE TRIGGER accounts_delete_notify
  AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION session_change_notify();
