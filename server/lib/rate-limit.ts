import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Clock } from './clock';

export interface RateLimitRule {
  /** Most hits allowed inside one window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every process of the app shares them
 * (two API instances cannot each grant the full budget).
 */
export interface RateLimiter {
  /** Counts one hit; false when the key is over its budget. */
  hit(key: string, rule: RateLimitRule): Promise<boolean>;
  reset(key: string): Promise<void>;
}

export function createRateLimiter(db: Db, clock: Clock): RateLimiter {
  return {
    async hit(key, rule) {
      const now = clock.now();
      const windowStartFloor = new Date(now.getTime() - rule.windowSeconds * 1000);
      const result = await db.execute<{ hits: number }>(sql`
        insert into rate_limits (key, window_start, hits) values (${key}, ${now}, 1)
        on conflict (key) do update set
          hits = case when rate_limits.window_start <= ${windowStartFloor} then 1 else rate_limits.hits + 1 end,
          window_start = case when rate_limits.window_start <= ${windowStartFloor} then ${now} else rate_limits.window_start end
        returning hits`);
      return Number(result.rows[0]?.hits ?? 0) <= rule.limit;
    },
    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${key}`);
    },
  };
}
