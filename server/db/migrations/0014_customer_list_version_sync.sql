-- customer_list_version moves on whenever the set of customers a list filter or count can see
-- changes: rows inserted or deleted, or a filtered, sorted or searched column updated (the
-- account copies included, which the accounts triggers write). Wallet and transaction updates do
-- not move it. The list caches counts per version (server/modules/customers/count-cache.ts).
INSERT INTO customer_list_version (id, version) VALUES (1, 0);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_list_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE customer_list_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_list_version_rows
  AFTER INSERT OR DELETE OR TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION customer_list_version_bump();
--> statement-breakpoint
CREATE TRIGGER customer_list_version_columns
  AFTER UPDATE OF account_id, agent_id, "group", platform_type, datetime_inserted, account_status,
                  account_country_id, account_live, account_first_name, account_last_name ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION customer_list_version_bump();
