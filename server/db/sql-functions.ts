import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/** The one current source of every SQL function: one file per area, each statement a CREATE OR REPLACE. */
export const functionsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'functions');

export interface FunctionSource {
  file: string;
  text: string;
  checksum: string;
}

export function functionSources(folder = functionsFolder): FunctionSource[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(folder, file), 'utf8');
      return { file, text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/**
 * Applies the function files whose text changed since they were last applied to this database, in one
 * transaction, and records their checksums; answers the files applied. Runs after the migrations,
 * under their lock (migrate.ts). A change of a function's arguments or result type needs a migration
 * that drops the old function first: CREATE OR REPLACE cannot change them.
 */
export async function applySqlFunctions(client: pg.PoolClient, sources = functionSources()): Promise<string[]> {
  await client.query('begin');
  try {
    const applied = await client.query<{ file: string; checksum: string }>('select file, checksum from sql_function_sources');
    const known = new Map(applied.rows.map((row) => [row.file, row.checksum]));
    const changed = sources.filter((source) => known.get(source.file) !== source.checksum);
    for (const source of changed) {
      await client.query(source.text);
      await client.query(
        `insert into sql_function_sources (file, checksum) values ($1, $2)
         on conflict (file) do update set checksum = excluded.checksum, applied_at = now()`,
        [source.file, source.checksum],
      );
    }
    await client.query('commit');
    return changed.map((source) => source.file);
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
