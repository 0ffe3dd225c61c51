DROP INDEX "customers_wallet_id_idx";--> statement-breakpoint
DROP INDEX "customers_inserted_id_idx";--> statement-breakpoint
DROP INDEX "entry_audits_inserted_idx";--> statement-breakpoint
DROP INDEX "exit_audits_inserted_idx";--> statement-breakpoint
DROP INDEX "orders_inserted_idx";--> statement-breakpoint
DROP INDEX "customers_live_status_idx";--> statement-breakpoint
DROP INDEX "customers_live_name_idx";--> statement-breakpoint
ALTER TABLE "entry_audits" ADD COLUMN "inserted_by" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "exit_audits" ADD COLUMN "inserted_by" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "inserted_by" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_live_inserted_idx" ON "customers" USING btree ("datetime_inserted","id","account_status","account_country_id","agent_id","group","platform_type","current_wallet_amount","account_first_name","account_last_name") WHERE "customers"."account_live";--> statement-breakpoint
CREATE INDEX "customers_live_wallet_idx" ON "customers" USING btree ("current_wallet_amount","id","account_status","account_country_id","agent_id","group","platform_type") WHERE "customers"."account_live";--> statement-breakpoint
CREATE INDEX "entry_audits_inserted_id_idx" ON "entry_audits" USING btree ("datetime_inserted","id","strategy_id","order_id");--> statement-breakpoint
CREATE INDEX "entry_audits_strategy_idx" ON "entry_audits" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "entry_audits_inserted_by_idx" ON "entry_audits" USING btree ("inserted_by");--> statement-breakpoint
CREATE INDEX "executions_closing_idx" ON "executions" USING btree ("order_id") WHERE "executions"."state" in ('pending', 'open') and "executions"."close_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "exit_audits_inserted_id_idx" ON "exit_audits" USING btree ("datetime_inserted","id","strategy_id","order_id","exit_type");--> statement-breakpoint
CREATE INDEX "exit_audits_strategy_idx" ON "exit_audits" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "exit_audits_exit_type_idx" ON "exit_audits" USING btree ("exit_type");--> statement-breakpoint
CREATE INDEX "exit_audits_inserted_by_idx" ON "exit_audits" USING btree ("inserted_by");--> statement-breakpoint
CREATE INDEX "orders_inserted_id_idx" ON "orders" USING btree ("datetime_inserted","id","strategy_id");--> statement-breakpoint
CREATE INDEX "orders_inserted_by_idx" ON "orders" USING btree ("inserted_by");--> statement-breakpoint
CREATE INDEX "customers_live_status_idx" ON "customers" USING btree ("account_status","account_country_id","group","platform_type","agent_id","datetime_inserted","current_wallet_amount","account_first_name","account_last_name","id") WHERE "customers"."account_live";--> statement-breakpoint
CREATE INDEX "customers_live_name_idx" ON "customers" USING btree ("account_first_name","account_last_name","id","account_status","account_country_id","agent_id","group","platform_type") WHERE "customers"."account_live";