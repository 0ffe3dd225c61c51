import path from 'node:path';
import { AccountStatus } from '../../contract/enums';
import { createDeps } from '../bootstrap';
import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import { ManualClock } from '../lib/clock';
import { createLogger } from '../logger';
import { findAccountByEmail } from '../modules/accounts/repository';
import { DEMO_PASSWORD, demoAdmin, demoAgents, demoCustomers, demoEmployees } from './data';
import { demoSeededAt, markDemoSeeded } from './marker';
import { restoreSandboxAccounts } from './sandbox';
import { seedDemo } from './seed';

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
  const seededAt = await demoSeededAt(database.db);
  const balances = new Map(demoCustomers().map((c) => [c.email, c.balance]));
  if (seededAt) {
    const deps = createDeps(config, database, log);
    const restored = await restoreSandboxAccounts(deps, (email) => balances.get(email) ?? 1_000);
    log.info(`demo data seeded at ${seededAt}; ${restored} sandbox exchange accounts reopened`);
  } else {
    if (await findAccountByEmail(database.db, demoAdmin.email)) {
      throw new Error(`A previous demo seeding of ${config.dataDir} did not finish. Delete that directory and run npm run demo again.`);
    }
    const clock = new ManualClock();
    const deps = createDeps(config, database, log, { clock });
    log.info('seeding the demo data set (first start)');
    await seedDemo(deps, clock);
    await markDemoSeeded(database.db, clock.now());
  }
} finally {
  await database.shutdown();
}

await import('../main');

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
