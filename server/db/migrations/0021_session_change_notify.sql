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
--> statement-breakpoint
CREATE TRIGGER agents_change_notify
  AFTER INSERT OR DELETE OR UPDATE OF account_id ON agents
  FOR EACH ROW EXECUTE FUNCTION session_change_notify();
