CREATE TABLE "egress_bans" (
	"exchange" text NOT NULL,
	"egress" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "egress_bans_exchange_egress_pk" PRIMARY KEY("exchange","egress")
);
