CREATE TABLE "customer_list_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "customer_list_version_one_row_ck" CHECK ("customer_list_version"."id" = 1)
);
