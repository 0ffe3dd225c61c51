-- Guard (issue 29): the most an entry's expected fill may be from the alert's price, in basis points; null: no limit.
ALTER TABLE "strategies" ADD COLUMN "max_slippage_bps" integer;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_max_slippage_ck" CHECK ("strategies"."max_slippage_bps" between 1 and 10000);