CREATE TABLE "reconciler_findings" (
	"customer_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"kind" text NOT NULL,
	"size" numeric(24, 8) NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciler_findings_customer_id_symbol_side_kind_pk" PRIMARY KEY("customer_id","symbol","side","kind")
);
--> statement-breakpoint
ALTER TABLE "reconciler_findings" ADD CONSTRAINT "reconciler_findings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;