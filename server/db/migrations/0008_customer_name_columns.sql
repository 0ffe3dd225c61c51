DROP INDEX "accounts_customer_name_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "account_first_name" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "account_last_name" text;--> statement-breakpoint
CREATE INDEX "customers_live_name_idx" ON "customers" USING btree ("account_first_name","account_last_name","id") WHERE "customers"."account_live";