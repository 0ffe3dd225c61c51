DROP INDEX "customers_wallet_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "account_status" smallint;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "account_country_id" integer;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "account_live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "accounts_customer_name_idx" ON "accounts" USING btree ("first_name","last_name","id") WHERE "accounts"."account_type" = 1 and "accounts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_wallet_id_idx" ON "customers" USING btree ("current_wallet_amount","id");--> statement-breakpoint
CREATE INDEX "customers_inserted_id_idx" ON "customers" USING btree ("datetime_inserted","id");--> statement-breakpoint
CREATE INDEX "customers_live_status_idx" ON "customers" USING btree ("account_status","account_country_id") WHERE "customers"."account_live";