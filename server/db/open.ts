import type { Config } from '../config';
import { createDb, type DbHandle } from './client';
import { ensureDatabase, openEmbeddedPostgres } from './embedded';

const APP_DATABASE = 'copytrade';

export interface OpenedDatabase extends DbHandle {
  /** Stops the embedded server when this process started it. */
  shutdown(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL of DATA_DIR (started if nobody runs it). */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { max?: number; applicationName?: string; log?: (line: string) => void } = {},
): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    const handle = createDb(config.databaseUrl, options);
    return { ...handle, shutdown: () => handle.close() };
  }
  const embedded = await openEmbeddedPostgres(config.dataDir, options.log);
  await ensureDatabase(embedded.adminUrl, APP_DATABASE);
  const handle = createDb(embedded.urlFor(APP_DATABASE), options);
  return {
    ...handle,
    shutdown: async () => {
      await handle.close();
      if (embedded.owned) await embedded.stop();
    },
  };
}
