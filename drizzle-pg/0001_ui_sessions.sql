CREATE TABLE "ui_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"token_digest" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ui_sessions_expires" ON "ui_sessions" USING btree ("expires_at");