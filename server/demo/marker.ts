import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, settings } from '../db/schema/index';

const DEMO_MARKER_KEY = 'demo_seeded';

/** When the demo data set was seeded into this database, if it was. */
export async function demoSeededAt(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, DEMO_MARKER_KEY));
  const value = row?.value as { seededAt?: unknown } | undefined;
  return typeof value?.seededAt === 'string' ? value.seededAt : undefined;
}

/** Written once every demo row exists, so a database is seeded at most once. */
export async function markDemoSeeded(db: Db, at: Date): Promise<void> {
  await db.insert(settings).values({ key: DEMO_MARKER_KEY, value: { seededAt: at.toISOString() }, updatedAt: at });
}

/** Whether the database holds any Order (demo data sets seeded before the trading history have none). */
export async function hasOrders(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: orders.id }).from(orders).limit(1);
  return row !== undefined;
}
