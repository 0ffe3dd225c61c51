-- Guard (issue 29): the maximum age of a strategy's entry alerts; null keeps the process's MAX_ALERT_AGE_MS.
ALTER TABLE "strategies" ADD COLUMN "max_alert_age_s" integer;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_max_alert_age_ck" CHECK ("strategies"."max_alert_age_s" between 1 and 86400);