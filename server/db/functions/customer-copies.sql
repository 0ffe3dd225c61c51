-- Copies of the account on customers (status, country, liveness, first and last name), kept by triggers
-- so the customer lists filter, sort and count on one table (server/db/schema/people.ts), and the
-- counter the lists' counts are cached under (customer_list_version).

-- BEFORE INSERT OR UPDATE of customers (trigger customers_copy_account): reads the copies from the account.
CREATE OR REPLACE FUNCTION customers_copy_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.status, a.country_id, (a.deleted_at IS NULL AND a.account_type = 1), a.first_name, a.last_name
    INTO NEW.account_status, NEW.account_country_id, NEW.account_live, NEW.account_first_name, NEW.account_last_name
    FROM accounts a
   WHERE a.id = NEW.account_id;
  RETURN NEW;
END
$$;

-- AFTER UPDATE of accounts (trigger accounts_push_to_customers): writes the copies to the account's customers.
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

-- customer_list_version moves on whenever the set of customers a list filter or count can see changes:
-- rows inserted or deleted, or a filtered, sorted or searched column updated (the account copies
-- included). Wallet and transaction updates do not move it.
CREATE OR REPLACE FUNCTION customer_list_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE customer_list_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;
