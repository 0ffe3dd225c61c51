CREATE TABLE "trading_pauses" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"strategy_id" text,
	"customer_id" integer,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paused_by" integer,
	CONSTRAINT "trading_pauses_scope_ck" CHECK (("trading_pauses"."scope" = 'platform' and "trading_pauses"."strategy_id" is null and "trading_pauses"."customer_id" is null)
        or ("trading_pauses"."scope" = 'strategy' and "trading_pauses"."strategy_id" is not null and "trading_pauses"."customer_id" is null)
        or ("trading_pauses"."scope" = 'customer' and "trading_pauses"."customer_id" is not null and "trading_pauses"."strategy_id" is null))
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose_ck";--> statement-breakpoint
ALTER TABLE "trading_pauses" ADD CONSTRAINT "trading_pauses_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_pauses" ADD CONSTRAINT "trading_pauses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_pauses" ADD CONSTRAINT "trading_pauses_paused_by_accounts_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trading_pauses_platform_uq" ON "trading_pauses" USING btree ("scope") WHERE "trading_pauses"."scope" = 'platform';--> statement-breakpoint
CREATE UNIQUE INDEX "trading_pauses_strategy_uq" ON "trading_pauses" USING btree ("strategy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trading_pauses_customer_uq" ON "trading_pauses" USING btree ("customer_id");--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose_ck" CHECK ("one_time_codes"."purpose" in ('login', 'password_reset', 'new_device', 'kill_switch'));