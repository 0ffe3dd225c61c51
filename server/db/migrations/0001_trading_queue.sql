CREATE TABLE "exchange_account_settings" (
	"customer_id" integer NOT NULL,
	"platform_type" smallint NOT NULL,
	"symbol" text NOT NULL,
	"leverage" integer NOT NULL,
	"position_mode" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_account_settings_customer_id_platform_type_symbol_pk" PRIMARY KEY("customer_id","platform_type","symbol")
);
--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "state" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "protected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "legs" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "stop_loss_price" numeric(24, 8);--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "stop_moved_to_entry" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "last_mark_price" numeric(24, 8);--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "closed_qty" numeric(24, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "close_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "exit_type" smallint;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signals" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "exchange_account_settings" ADD CONSTRAINT "exchange_account_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "executions_open_idx" ON "executions" USING btree ("state") WHERE "executions"."state" in ('pending', 'open');--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_state_ck" CHECK ("executions"."state" in ('pending', 'open', 'closed', 'failed', 'skipped'));