import path from 'node:path';
import { AccountStatus } from '../../contract/enums';
import { createDeps } from '../bootstrap';
import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import { ManualClock } from '../lib/clock';
import { createLogger } from '../logger';
import { DEMO_PASSWORD, demoAdmin, demoAgents, demoCustomers, demoEmployees } from './data';
import { openLivePositions } from './live';
import { hasOrders } from './marker';
import { seedDemoOnce } from './once';
import { restoreSandboxAccounts } from './sandbox';

/**
 * `npm run demo`: the app as `npm start` runs it, on its own data directory (DATA_DIR, default
 * ./data-demo), seeded once with the demo data set. Prints the logins; the 2FA codes are mailed to
 * DATA_DIR/outbox.
 */
process.env.DATA_DIR ??= path.resolve('data-demo');
process.env.EXCHANGE_MODE ??= 'sandbox';
const config = loadConfig();
if (config.exchangeMode !== 'sandbox') {
  throw new Error('npm run demo needs EXCHANGE_MODE=sandbox: the demo customers hold keys of the built-in exchange sandbox, not of real exchanges');
}
const log = createLogger(config.logLevel);

const database = await openDatabase(config, { max: 5, applicationName: 'demo-seed', log: (line) => log.debug(line) });
try {
  await migrate(database.pool);
  const clock = new ManualClock();
  const deps = createDeps(config, database, log, { clock });
  const started = Date.now();
  const seeding = await seedDemoOnce(deps, clock, config.dataDir);
  if (seeding.seeded) {
    log.info(`demo data set seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    const balances = new Map(demoCustomers().map((c) => [c.email, c.balance]));
    const restored = await restoreSandboxAccounts(deps, (email) => balances.get(email) ?? 1_000);
    log.info(`demo data seeded at ${seeding.seededAt}; ${restored} sandbox exchange accounts reopened`);
    if (!(await hasOrders(deps.db))) {
      log.warn(`${config.dataDir} was seeded before the demo had a trading history; delete that directory and run npm run demo again to get it`);
    }
  }
} finally {
  await database.shutdown();
}

await import('../main');

// The app is up with its engine: the demo's live Orders get their positions on the sandbox exchange now.
const live = await openDatabase(config, { max: 2, applicationName: 'demo-live', log: (line) => log.debug(line) });
try {
  const orderIds = await openLivePositions(createDeps(config, live, log));
  log.info(`demo: live orders ${orderIds.join(', ')} opened; the engine places and protects their positions on the sandbox exchange`);
} finally {
  await live.shutdown();
}

const line = (role: string, email: string) => `  ${role.padEnd(22)} ${email}`;
console.log(
  [
    '',
    `Demo logins (password for all: ${DEMO_PASSWORD}; the 2FA code is mailed to ${path.join(config.dataDir, 'outbox')}):`,
    line('Admin', demoAdmin.email),
    ...demoEmployees.map((p) => line('Employee', p.email)),
    ...demoAgents.map((p) => line(p.status === AccountStatus.Active ? 'Agent' : 'Agent (blocked)', p.email)),
    ...demoCustomers()
      .filter((c) => c.status === AccountStatus.Active)
      .slice(0, 2)
      .map((c) => line('Customer', c.email)),
    `Staff sign in at ${config.publicUrl}/admin/login, agents and customers at ${config.publicUrl}/auth/login.`,
    '',
  ].join('\n'),
);
