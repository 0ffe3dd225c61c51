ALTER TABLE "registration_ids" DROP CONSTRAINT "registration_ids_used_ck";--> statement-breakpoint
ALTER TABLE "pending_registrations" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_ids" ADD CONSTRAINT "registration_ids_used_ck" CHECK ("registration_ids"."used_by_account_id" is null or "registration_ids"."used_at" is not null);