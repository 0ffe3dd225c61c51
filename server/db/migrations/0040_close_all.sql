-- Close all (issue 29): one row per close-all an admin asked for; the executions it closes point to it.
CREATE TABLE "close_all_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"strategy_id" text,
	"customer_id" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" integer,
	"positions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "close_all_runs_scope_ck" CHECK (("close_all_runs"."scope" = 'platform' and "close_all_runs"."strategy_id" is null and "close_all_runs"."customer_id" is null)
        or ("close_all_runs"."scope" = 'strategy' and "close_all_runs"."strategy_id" is not null and "close_all_runs"."customer_id" is null)
        or ("close_all_runs"."scope" = 'customer' and "close_all_runs"."customer_id" is not null and "close_all_runs"."strategy_id" is null))
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "close_all_id" integer;--> statement-breakpoint
ALTER TABLE "close_all_runs" ADD CONSTRAINT "close_all_runs_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_all_runs" ADD CONSTRAINT "close_all_runs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_all_runs" ADD CONSTRAINT "close_all_runs_requested_by_accounts_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "close_all_runs_strategy_idx" ON "close_all_runs" USING btree ("strategy_id","id");--> statement-breakpoint
CREATE INDEX "close_all_runs_customer_idx" ON "close_all_runs" USING btree ("customer_id","id");--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_close_all_id_close_all_runs_id_fk" FOREIGN KEY ("close_all_id") REFERENCES "public"."close_all_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "executions_close_all_idx" ON "executions" USING btree ("close_all_id") WHERE "executions"."close_all_id" is not null;