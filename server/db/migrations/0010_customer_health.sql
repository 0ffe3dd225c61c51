CREATE TABLE "customer_health" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"key_valid" boolean,
	"can_trade" boolean,
	"can_withdraw" boolean,
	"ip_bound" boolean,
	"position_mode" text,
	"checked_at" timestamp with time zone NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_error" text,
	"withdrawal_alerted_at" timestamp with time zone,
	CONSTRAINT "customer_health_mode_ck" CHECK ("customer_health"."position_mode" is null or "customer_health"."position_mode" in ('oneway', 'hedge'))
);
--> statement-breakpoint
ALTER TABLE "customer_health" ADD CONSTRAINT "customer_health_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_health_problem_idx" ON "customer_health" USING btree ("key_valid","can_withdraw");