-- Loss guards (issue 29): a customer's daily loss limit and maximum drawdown, the pause they set (its reason, and when it ends by itself).
ALTER TABLE "trading_pauses" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "trading_pauses" ADD COLUMN "resume_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_guards" ADD COLUMN "daily_loss_limit_usdt" integer;--> statement-breakpoint
ALTER TABLE "customer_guards" ADD COLUMN "max_drawdown_pct" integer;--> statement-breakpoint
ALTER TABLE "customer_guards" ADD COLUMN "loss_guard_resume" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_guards" ADD COLUMN "equity_high_water" numeric;--> statement-breakpoint
ALTER TABLE "customer_guards" ADD CONSTRAINT "customer_guards_daily_loss_ck" CHECK ("customer_guards"."daily_loss_limit_usdt" between 1 and 100000000);--> statement-breakpoint
ALTER TABLE "customer_guards" ADD CONSTRAINT "customer_guards_max_drawdown_ck" CHECK ("customer_guards"."max_drawdown_pct" between 1 and 99);--> statement-breakpoint
ALTER TABLE "customer_guards" ADD CONSTRAINT "customer_guards_loss_resume_ck" CHECK ("customer_guards"."loss_guard_resume" in ('staff', 'next_day'));