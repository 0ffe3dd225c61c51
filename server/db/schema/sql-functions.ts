import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The SQL function files (server/db/functions/*.sql) as last applied to this database, one row per file:
 * migrate() applies a file again only when its checksum changed (server/db/sql-functions.ts).
 */
export const sqlFunctionSources = pgTable('sql_function_sources', {
  file: text().primaryKey(),
  checksum: text().notNull(),
  appliedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
