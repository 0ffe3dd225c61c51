DROP INDEX "customers_group_idx";--> statement-breakpoint
DROP INDEX "customers_platform_idx";--> statement-breakpoint
CREATE INDEX "customers_group_status_idx" ON "customers" USING btree ("group","account_status") WHERE "customers"."account_live";--> statement-breakpoint
CREATE INDEX "customers_platform_status_idx" ON "customers" USING btree ("platform_type","account_status") WHERE "customers"."account_live";