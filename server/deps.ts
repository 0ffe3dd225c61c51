import type pg from 'pg';
import type { Mailer } from './lib/mailer';
import type { SessionCache } from './modules/auth/session-cache';
import type { RateLimiter } from './lib/rate-limit';
import type { TradingDeps } from './trading/deps';

/** What route modules and services are built from; tests build it with their own database and clock. */
export interface Deps extends TradingDeps {
  pool: pg.Pool;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Resolved sessions of this process, dropped through LISTEN/NOTIFY (modules/auth/session-cache.ts). */
  sessionCache: SessionCache;
}
