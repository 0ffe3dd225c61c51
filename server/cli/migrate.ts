import { loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';

const database = await openDatabase(loadConfig(), { max: 2, applicationName: 'migrate' });
try {
  await migrate(database.pool);
  console.log('Database migrated.');
} finally {
  await database.shutdown();
}
