import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import type { Mailer } from './lib/mailer';
import type { SessionCache } from './modules/auth/session-cache';
import type { RateLimiter } from './lib/rate-limit';
import type { Secrets } from './lib/secrets';
import type { ExchangeAccess } from './trading/exchanges/for-deps';
import type { TradingIntake } from './trading/intake-state';

/** What route modules and services are built from; tests build it with their own database and clock. */
export interface Deps {
  config: Config;
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  mailer: Mailer;
  secrets: Secrets;
  rateLimiter: RateLimiter;
  log: FastifyBaseLogger;
  /** How this process reaches the exchanges (tests point it at the standalone sandbox). */
  exchanges: ExchangeAccess;
  /** What the one way into trading keeps per process: cached webhook strategies, the in-process hand-off. */
  intake: TradingIntake;
  /** Resolved sessions of this process, dropped through LISTEN/NOTIFY (modules/auth/session-cache.ts). */
  sessionCache: SessionCache;
}
