import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DbHandle } from './db/client';
import type { Deps } from './deps';
import { systemClock, type Clock } from './lib/clock';
import { createMailer, type Mailer } from './lib/mailer';
import { createRateLimiter } from './lib/rate-limit';
import { createSecrets, loadMasterKey } from './lib/secrets';
import { createExchangeAccess } from './trading/exchanges/for-deps';
import { createTradingIntake } from './trading/intake-state';
import { SessionCache } from './modules/auth/session-cache';

/** Builds the services every module uses from configuration and an open database. */
export function createDeps(
  config: Config,
  database: DbHandle,
  log: FastifyBaseLogger,
  overrides: { clock?: Clock; mailer?: Mailer } = {},
): Deps {
  const clock = overrides.clock ?? systemClock;
  return {
    config,
    db: database.db,
    pool: database.pool,
    clock,
    log,
    secrets: createSecrets(loadMasterKey(config.masterKey, config.dataDir)),
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: (line) => log.info(line) }),
    rateLimiter: createRateLimiter(database.db, clock),
    exchanges: createExchangeAccess(config),
    intake: createTradingIntake(database.intakeDb),
    sessionCache: new SessionCache(database.pool, log),
  };
}
