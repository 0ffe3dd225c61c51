import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/helpers/test-app';
import { sqlFunctionTexts } from '../../tests/helpers/sql-functions';
import { applySqlFunctions, functionSources, functionsFolder } from './sql-functions';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
});

afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** The functions of the database that no extension brought, with their bodies. */
async function liveFunctions(): Promise<Map<string, string>> {
  const result = await pool.query<{ name: string; body: string }>(`
    select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`);
  return new Map(result.rows.map((row) => [row.name, row.body]));
}

/** A copy of the function files with `edit` applied to one of them. */
function editedCopy(file: string, edit: (text: string) => string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'sql-functions-'));
  for (const name of readdirSync(functionsFolder)) {
    const text = readFileSync(path.join(functionsFolder, name), 'utf8');
    writeFileSync(path.join(folder, name), name === file ? edit(text) : text);
  }
  return folder;
}

async function withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

const clientIdOf = async () => (await pool.query<{ id: string }>('select entry_client_order_id(7, 9) as id')).rows[0]!.id;

describe('the SQL functions: one current source, applied by migrate()', () => {
  it('every function of a migrated database is defined in server/db/functions, with the body its file holds', async () => {
    const texts = sqlFunctionTexts();
    const live = await liveFunctions();
    expect(texts.map((text) => text.name).sort()).toEqual([...live.keys()].sort());
    for (const text of texts) expect({ name: text.name, body: live.get(text.name) }).toEqual({ name: text.name, body: text.body });
    const recorded = await pool.query<{ file: string; checksum: string }>('select file, checksum from sql_function_sources order by file');
    expect(recorded.rows).toEqual(functionSources().map(({ file, checksum }) => ({ file, checksum })));
  });

  it('applies nothing while the files are unchanged, and a changed file alone', async () => {
    expect(await withClient((client) => applySqlFunctions(client))).toEqual([]);
    const folder = editedCopy('alert-intake.sql', (text) => text.replace("SELECT 'ct' || p_order_id", "SELECT 'cx' || p_order_id"));
    expect(await withClient((client) => applySqlFunctions(client, functionSources(folder)))).toEqual(['alert-intake.sql']);
    expect(await clientIdOf()).toBe('cx7-9-e');
    expect(await withClient((client) => applySqlFunctions(client))).toEqual(['alert-intake.sql']);
    expect(await clientIdOf()).toBe('ct7-9-e');
  });

  it('applies the changed files in one transaction: a file that fails leaves every function and checksum as it was', async () => {
    const before = await pool.query('select file, checksum from sql_function_sources order by file');
    const folder = editedCopy('alert-intake.sql', (text) => text.replace("SELECT 'ct' || p_order_id", "SELECT 'cx' || p_order_id"));
    const broken = editedCopy('list-changes.sql', (text) => `${text}\nCREATE OR REPLACE FUNCTION broken() RETURNS integer LANGUAGE sql AS $$ SELECT no_such_column FROM customers $$;\n`);
    const sources = functionSources(folder).map((source) => (source.file === 'list-changes.sql' ? functionSources(broken).find((s) => s.file === source.file)! : source));
    await expect(withClient((client) => applySqlFunctions(client, sources))).rejects.toThrow(/no_such_column/);
    expect(await clientIdOf()).toBe('ct7-9-e');
    expect((await pool.query('select file, checksum from sql_function_sources order by file')).rows).toEqual(before.rows);
    expect((await liveFunctions()).has('broken')).toBe(false);
  });

  it('migrations after the function files came hold no function', () => {
    const folder = path.join(import.meta.dirname, 'migrations');
    const later = readdirSync(folder).filter((name) => name.endsWith('.sql') && Number(name.slice(0, 4)) >= 36);
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((name) => /CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i.test(readFileSync(path.join(folder, name), 'utf8')))).toEqual([]);
  });
});
