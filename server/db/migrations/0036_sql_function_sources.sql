-- From this migration on, migrations hold tables, indexes and data moves only. The current source of
-- every SQL function is server/db/functions/*.sql, applied after the migrations by migrate() (the
-- functions in migrations 0005-0035 are their history: each is replaced by its file's text).
CREATE TABLE "sql_function_sources" (
	"file" text PRIMARY KEY NOT NULL,
	"checksum" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
