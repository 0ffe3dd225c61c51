-- Copies of the account's status, country and liveness on customers, kept by triggers so the
-- customer list filters and counts on one table (see server/db/schema/people.ts).
CREATE OR REPLACE FUNCTION customers_copy_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.status, a.country_id, (a.deleted_at IS NULL AND a.account_type = 1)
    INTO NEW.account_status, NEW.account_country_id, NEW.account_live
    FROM accounts a
   WHERE a.id = NEW.account_id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_copy_account
  BEFORE INSERT OR UPDATE OF account_id, account_status, account_country_id, account_live ON customers
  FOR EACH ROW EXECUTE FUNCTION customers_copy_account();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_push_to_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE customers
     SET account_status = NEW.status,
         account_country_id = NEW.country_id,
         account_live = (NEW.deleted_at IS NULL AND NEW.account_type = 1)
   WHERE account_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER accounts_push_to_customers
  AFTER UPDATE OF status, country_id, deleted_at, account_type ON accounts
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.country_id IS DISTINCT FROM NEW.country_id
     OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
     OR OLD.account_type IS DISTINCT FROM NEW.account_type)
  EXECUTE FUNCTION accounts_push_to_customers();
--> statement-breakpoint
UPDATE customers c
   SET account_status = a.status,
       account_country_id = a.country_id,
       account_live = (a.deleted_at IS NULL AND a.account_type = 1)
  FROM accounts a
 WHERE a.id = c.account_id;
