-- Execution quality (issue 29): when each entry was sent, acknowledged and known filled.
ALTER TABLE "executions" ADD COLUMN "entry_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "entry_acked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "entry_filled_at" timestamp with time zone;