import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import type { Secrets } from '../lib/secrets';
import type { ExchangeAccess } from './exchanges/for-deps';
import type { TradingIntake } from './intake-state';

/** What trading takes from its process (the process's `Deps` holds these and more): nothing of the API's. */
export interface TradingDeps {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  log: FastifyBaseLogger;
  /** How this process reaches the exchanges (tests point it at the standalone sandbox). */
  exchanges: ExchangeAccess;
  /** What the one way into trading keeps per process: cached webhook strategies, the in-process hand-off. */
  intake: TradingIntake;
}
