CREATE SEQUENCE "public"."customer_figure_changes" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;
--> statement-breakpoint
-- A customer's wallet and transaction count (its "figures") change far more often than anything else a
-- customer list shows (the wallet sync, every position opened), and only ever one customer's at a
-- time: they move a counter of their own. A kept customer list answer is still good after such a
-- change when its own rows' figures are unchanged (checked by one narrow read,
-- server/modules/customers/repository.ts), so a wallet written elsewhere no longer makes every page
-- stale. Every other column of customers moves the lists' counter as before. A column added to
-- customers must be named in one of the two UPDATE OF lists (tests/api/customer-figures.test.ts).
DROP TRIGGER customers_list_changed ON customers;
--> statement-breakpoint
CREATE TRIGGER customers_list_changed AFTER INSERT OR DELETE OR TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER customers_list_columns_changed AFTER UPDATE OF
    id, account_id, agent_id, registration_id_id, "group", application_source, platform_type, exchange_account_uuid, api_key_enc, api_key_last4, api_secret_enc, passphrase_enc, referral_code, profit_share_pct, datetime_inserted, account_status, account_country_id, account_live, account_first_name, account_last_name
  ON customers FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727100, 'customer_list_changes');
--> statement-breakpoint
CREATE TRIGGER customers_figures_changed AFTER UPDATE OF current_wallet_amount, total_transactions
  ON customers FOR EACH STATEMENT EXECUTE FUNCTION list_changed(727102, 'customer_figure_changes');
--> statement-breakpoint
-- "lists/figures"; null while a change of either is in flight.
CREATE OR REPLACE FUNCTION customer_list_settled_version() RETURNS text LANGUAGE sql AS $$
  SELECT list_settled(727100, 'customer_list_changes') || '/' || list_settled(727102, 'customer_figure_changes')
$$;
--> statement-breakpoint
-- A counter answers nothing before its first move: move each once, so a fresh database keeps answers too.
SELECT nextval('customer_list_changes'), nextval('activity_list_changes'), nextval('customer_figure_changes');
