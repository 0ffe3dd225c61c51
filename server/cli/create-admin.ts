import { parseArgs } from 'node:util';
import { password as passwordSchema, email as emailSchema } from '../../contract/common';
import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import { ensureAdmin } from './admin';

// npm run create-admin -- --email E --password P
// Works with the server running on the same DATA_DIR (connects to its database) or not (starts and stops it).
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
const email = emailSchema.safeParse(values.email ?? '');
const password = passwordSchema.safeParse(values.password ?? '');
if (!email.success || !password.success) {
  console.error('Usage: npm run create-admin -- --email admin@example.com --password "at least 8 characters"');
  process.exit(2);
}
const database = await openDatabase(loadConfig(), { max: 2, applicationName: 'create-admin' });
try {
  await migrate(database.pool);
  const result = await ensureAdmin(database.db, email.data, password.data);
  console.log(result.created ? `Admin ${email.data} created (account ${result.accountId}).` : `An account with ${email.data} already exists (account ${result.accountId}); nothing changed.`);
} finally {
  await database.shutdown();
}
