-- Webhook tokens stored before hashing: their SHA-256 (hex) becomes the lookup key, so every
-- existing TradingView alert keeps working. The plaintext stays until the server's first start
-- seals it with the master key (which SQL cannot read) and clears it.
UPDATE "strategies"
SET "webhook_token_hash" = encode(sha256(convert_to("webhook_token", 'UTF8')), 'hex')
WHERE "webhook_token" IS NOT NULL AND "webhook_token_hash" IS NULL AND "deleted_at" IS NULL;
--> statement-breakpoint
-- A deleted strategy has no webhook.
UPDATE "strategies" SET "webhook_token" = NULL WHERE "deleted_at" IS NOT NULL;
