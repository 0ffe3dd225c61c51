import { sql } from 'drizzle-orm';
import { customType } from 'drizzle-orm/pg-core';

/** A transaction id (xid8). */
export const transactionId = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * `inserted_by`: the transaction that inserted the row, set by its default and never written by the
 * application; what keeps counts of insert-only lists exact without counting again
 * (server/db/insert-only-count.ts).
 */
export const insertedBy = () => transactionId().notNull().default(sql`pg_current_xact_id()`);
