-- Guards of one customer (issue 29): maximum notional, leverage and open positions, minimum free balance; one row while any is set.
CREATE TABLE "customer_guards" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"max_notional_usdt" integer,
	"max_leverage" integer,
	"max_open_positions" integer,
	"min_free_balance_usdt" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_guards_max_notional_ck" CHECK ("customer_guards"."max_notional_usdt" between 1 and 100000000),
	CONSTRAINT "customer_guards_max_leverage_ck" CHECK ("customer_guards"."max_leverage" between 1 and 125),
	CONSTRAINT "customer_guards_max_open_positions_ck" CHECK ("customer_guards"."max_open_positions" between 1 and 1000),
	CONSTRAINT "customer_guards_min_free_balance_ck" CHECK ("customer_guards"."min_free_balance_usdt" between 1 and 100000000)
);
--> statement-breakpoint
ALTER TABLE "customer_guards" ADD CONSTRAINT "customer_guards_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;