CREATE TABLE "sign_in_addresses" (
	"account_id" integer NOT NULL,
	"address" text NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_addresses_account_id_address_pk" PRIMARY KEY("account_id","address")
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"address" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "strategies_webhook_uq";--> statement-breakpoint
ALTER TABLE "strategies" ALTER COLUMN "webhook_token" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "strategies" ADD COLUMN "webhook_token_hash" text;--> statement-breakpoint
ALTER TABLE "strategies" ADD COLUMN "webhook_token_sealed" text;--> statement-breakpoint
ALTER TABLE "sign_in_addresses" ADD CONSTRAINT "sign_in_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_failures_subject_idx" ON "sign_in_failures" USING btree ("subject","failed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "strategies_webhook_hash_uq" ON "strategies" USING btree ("webhook_token_hash");