-- Adds the account's first and last name to the copies kept on customers (see customer_list_sync).
CREATE OR REPLACE FUNCTION customers_copy_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.status, a.country_id, (a.deleted_at IS NULL AND a.account_type = 1), a.first_name, a.last_name
    INTO NEW.account_status, NEW.account_country_id, NEW.account_live, NEW.account_first_name, NEW.account_last_name
    FROM accounts a
   WHERE a.id = NEW.account_id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER customers_copy_account ON customers;
--> statement-breakpoint
CREATE TRIGGER customers_copy_account
  BEFORE INSERT OR UPDATE OF account_id, account_status, account_country_id, account_live, account_first_name, account_last_name ON customers
  FOR EACH ROW EXECUTE FUNCTION customers_copy_account();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_push_to_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE customers
     SET account_status = NEW.status,
         account_country_id = NEW.country_id,
         account_live = (NEW.deleted_at IS NULL AND NEW.account_type = 1),
         account_first_name = NEW.first_name,
         account_last_name = NEW.last_name
   WHERE account_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER accounts_push_to_customers ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_push_to_customers
  AFTER UPDATE OF status, country_id, deleted_at, account_type, first_name, last_name ON accounts
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.country_id IS DISTINCT FROM NEW.country_id
     OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
     OR OLD.account_type IS DISTINCT FROM NEW.account_type
     OR OLD.first_name IS DISTINCT FROM NEW.first_name
     OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION accounts_push_to_customers();
--> statement-breakpoint
UPDATE customers c
   SET account_first_name = a.first_name,
       account_last_name = a.last_name
  FROM accounts a
 WHERE a.id = c.account_id;
