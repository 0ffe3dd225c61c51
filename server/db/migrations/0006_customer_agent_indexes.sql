DROP INDEX "customers_agent_idx";--> statement-breakpoint
CREATE INDEX "customers_agent_inserted_idx" ON "customers" USING btree ("agent_id","datetime_inserted","id");--> statement-breakpoint
CREATE INDEX "customers_agent_wallet_idx" ON "customers" USING btree ("agent_id","current_wallet_amount","id");