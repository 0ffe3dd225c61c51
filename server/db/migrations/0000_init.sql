CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"age" integer,
	"phone" text,
	"gender" smallint,
	"country_id" integer,
	"status" smallint NOT NULL,
	"account_type" smallint NOT NULL,
	"password_hash" text NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	"datetime_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "accounts_status_ck" CHECK ("accounts"."status" between 1 and 5),
	CONSTRAINT "accounts_type_ck" CHECK ("accounts"."account_type" between 1 and 4),
	CONSTRAINT "accounts_gender_ck" CHECK ("accounts"."gender" is null or "accounts"."gender" in (1, 2)),
	CONSTRAINT "accounts_age_ck" CHECK ("accounts"."age" is null or "accounts"."age" between 0 and 150)
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country_code" text NOT NULL,
	"dial_code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "one_time_codes_purpose_ck" CHECK ("one_time_codes"."purpose" in ('login', 'password_reset'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_account_id" integer,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"agent_id" integer,
	"registration_id_id" integer,
	"group" smallint,
	"application_source" smallint NOT NULL,
	"platform_type" smallint DEFAULT 0 NOT NULL,
	"exchange_account_uuid" text,
	"api_key_enc" text,
	"api_key_last4" text,
	"api_secret_enc" text,
	"passphrase_enc" text,
	"current_wallet_amount" numeric(24, 8) DEFAULT '0' NOT NULL,
	"total_transactions" integer DEFAULT 0 NOT NULL,
	"referral_code" text,
	"profit_share_pct" numeric(5, 2),
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_group_ck" CHECK ("customers"."group" is null or "customers"."group" between 1 and 5),
	CONSTRAINT "customers_source_ck" CHECK ("customers"."application_source" in (1, 2)),
	CONSTRAINT "customers_platform_ck" CHECK ("customers"."platform_type" between 0 and 4),
	CONSTRAINT "customers_profit_share_ck" CHECK ("customers"."profit_share_pct" is null or "customers"."profit_share_pct" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "employees" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer NOT NULL,
	"registration_id_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registration_ids" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"agent_id" integer NOT NULL,
	"created_by_account_id" integer,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"used_by_account_id" integer,
	CONSTRAINT "registration_ids_used_ck" CHECK (("registration_ids"."used_at" is null) = ("registration_ids"."used_by_account_id" is null))
);
--> statement-breakpoint
CREATE TABLE "entry_audits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" integer,
	"customer_id" integer,
	"strategy_id" text,
	"entry_type" smallint,
	"message" text NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"client_order_id" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"claim_expires_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"quantity" numeric(24, 8),
	"entry_price" numeric(24, 8),
	"exchange_order_id" text,
	"realized_pnl" numeric(24, 8) DEFAULT '0' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exit_audits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" integer,
	"customer_id" integer,
	"strategy_id" text,
	"exit_type" smallint,
	"is_error" boolean DEFAULT false NOT NULL,
	"message" text NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exit_audits_type_ck" CHECK ("exit_audits"."exit_type" is null or "exit_audits"."exit_type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"strategy_id" text NOT NULL,
	"signal_id" bigint,
	"side" smallint NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"entry_type" smallint NOT NULL,
	"realized_pnl" numeric(24, 8) DEFAULT '0' NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	"datetime_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "orders_side_ck" CHECK ("orders"."side" in (1, 2)),
	CONSTRAINT "orders_status_ck" CHECK ("orders"."status" in (1, 2, 3)),
	CONSTRAINT "orders_entry_type_ck" CHECK ("orders"."entry_type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "signals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"strategy_id" text NOT NULL,
	"alert_id" text,
	"body_hash" text NOT NULL,
	"body" text NOT NULL,
	"action" text,
	"source_ip" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"id" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"entry_direction" smallint NOT NULL,
	"leverage" integer NOT NULL,
	"position_mode" smallint NOT NULL,
	"take_profit_type" smallint NOT NULL,
	"take_profit_mode" smallint NOT NULL,
	"tp1_target_level" numeric(24, 8) NOT NULL,
	"tp1_close_volume" numeric(24, 8) NOT NULL,
	"tp2_target_level" numeric(24, 8),
	"tp2_close_volume" numeric(24, 8),
	"tp3_target_level" numeric(24, 8),
	"tp3_close_volume" numeric(24, 8),
	"stop_loss_type" smallint NOT NULL,
	"stop_loss_amount" numeric(24, 8) NOT NULL,
	"advance_stop_loss" boolean DEFAULT false NOT NULL,
	"trailing_stop" boolean DEFAULT false NOT NULL,
	"activation_type" smallint,
	"activation_amount" numeric(24, 8),
	"close_type" smallint,
	"close_amount" numeric(24, 8),
	"status" smallint DEFAULT 1 NOT NULL,
	"exclusive_customer_id" integer,
	"webhook_token" text NOT NULL,
	"datetime_inserted" timestamp with time zone DEFAULT now() NOT NULL,
	"datetime_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategies_direction_ck" CHECK ("strategies"."entry_direction" in (1, 2)),
	CONSTRAINT "strategies_mode_ck" CHECK ("strategies"."position_mode" in (1, 2)),
	CONSTRAINT "strategies_tp_type_ck" CHECK ("strategies"."take_profit_type" in (1, 3)),
	CONSTRAINT "strategies_tp_mode_ck" CHECK ("strategies"."take_profit_mode" in (1, 2)),
	CONSTRAINT "strategies_sl_type_ck" CHECK ("strategies"."stop_loss_type" in (1, 3)),
	CONSTRAINT "strategies_status_ck" CHECK ("strategies"."status" in (1, 2)),
	CONSTRAINT "strategies_leverage_ck" CHECK ("strategies"."leverage" between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "strategy_groups" (
	"strategy_id" text NOT NULL,
	"group" smallint NOT NULL,
	"invest_type" smallint NOT NULL,
	"invest_amount" numeric(24, 8) NOT NULL,
	CONSTRAINT "strategy_groups_strategy_id_group_pk" PRIMARY KEY("strategy_id","group"),
	CONSTRAINT "strategy_groups_group_ck" CHECK ("strategy_groups"."group" between 1 and 5),
	CONSTRAINT "strategy_groups_invest_ck" CHECK ("strategy_groups"."invest_type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "webhook_group_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"group" smallint NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"datetime_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_group_settings_group_ck" CHECK ("webhook_group_settings"."group" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_actions" ADD CONSTRAINT "staff_actions_actor_account_id_accounts_id_fk" FOREIGN KEY ("actor_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_registration_id_id_registration_ids_id_fk" FOREIGN KEY ("registration_id_id") REFERENCES "public"."registration_ids"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_registrations" ADD CONSTRAINT "pending_registrations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_registrations" ADD CONSTRAINT "pending_registrations_registration_id_id_registration_ids_id_fk" FOREIGN KEY ("registration_id_id") REFERENCES "public"."registration_ids"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_ids" ADD CONSTRAINT "registration_ids_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_ids" ADD CONSTRAINT "registration_ids_created_by_account_id_accounts_id_fk" FOREIGN KEY ("created_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_ids" ADD CONSTRAINT "registration_ids_used_by_account_id_accounts_id_fk" FOREIGN KEY ("used_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_audits" ADD CONSTRAINT "entry_audits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_audits" ADD CONSTRAINT "entry_audits_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_audits" ADD CONSTRAINT "entry_audits_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exit_audits" ADD CONSTRAINT "exit_audits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exit_audits" ADD CONSTRAINT "exit_audits_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exit_audits" ADD CONSTRAINT "exit_audits_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_signal_id_signals_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_exclusive_customer_id_customers_id_fk" FOREIGN KEY ("exclusive_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_groups" ADD CONSTRAINT "strategy_groups_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_lower_uq" ON "accounts" USING btree (lower("email")) WHERE "accounts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "accounts_type_status_idx" ON "accounts" USING btree ("account_type","status");--> statement-breakpoint
CREATE INDEX "accounts_country_idx" ON "accounts" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "accounts_inserted_idx" ON "accounts" USING btree ("datetime_inserted");--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree (lower("first_name" || ' ' || "last_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_code_uq" ON "countries" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "countries_name_idx" ON "countries" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "one_time_codes_account_idx" ON "one_time_codes" USING btree ("account_id","purpose","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_uq" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "staff_actions_target_idx" ON "staff_actions" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "staff_actions_created_idx" ON "staff_actions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_account_uq" ON "agents" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_account_uq" ON "customers" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "customers_agent_idx" ON "customers" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "customers_group_idx" ON "customers" USING btree ("group");--> statement-breakpoint
CREATE INDEX "customers_platform_idx" ON "customers" USING btree ("platform_type");--> statement-breakpoint
CREATE INDEX "customers_wallet_idx" ON "customers" USING btree ("current_wallet_amount");--> statement-breakpoint
CREATE UNIQUE INDEX "employees_account_uq" ON "employees" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_registrations_account_uq" ON "pending_registrations" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registration_ids_code_uq" ON "registration_ids" USING btree ("code");--> statement-breakpoint
CREATE INDEX "registration_ids_agent_idx" ON "registration_ids" USING btree ("agent_id","datetime_inserted");--> statement-breakpoint
CREATE INDEX "entry_audits_inserted_idx" ON "entry_audits" USING btree ("datetime_inserted");--> statement-breakpoint
CREATE INDEX "entry_audits_order_idx" ON "entry_audits" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_order_customer_uq" ON "executions" USING btree ("order_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_client_order_uq" ON "executions" USING btree ("client_order_id");--> statement-breakpoint
CREATE INDEX "executions_ready_idx" ON "executions" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "executions_customer_idx" ON "executions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "exit_audits_inserted_idx" ON "exit_audits" USING btree ("datetime_inserted");--> statement-breakpoint
CREATE INDEX "exit_audits_order_idx" ON "exit_audits" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "orders_strategy_idx" ON "orders" USING btree ("strategy_id","status");--> statement-breakpoint
CREATE INDEX "orders_inserted_idx" ON "orders" USING btree ("datetime_inserted");--> statement-breakpoint
CREATE UNIQUE INDEX "signals_alert_uq" ON "signals" USING btree ("strategy_id","alert_id") WHERE "signals"."alert_id" is not null;--> statement-breakpoint
CREATE INDEX "signals_hash_idx" ON "signals" USING btree ("strategy_id","body_hash","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "strategies_webhook_uq" ON "strategies" USING btree ("webhook_token");--> statement-breakpoint
CREATE INDEX "strategies_symbol_idx" ON "strategies" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "strategy_groups_group_idx" ON "strategy_groups" USING btree ("group");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_group_settings_group_uq" ON "webhook_group_settings" USING btree ("group");