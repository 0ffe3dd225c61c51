import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every TypeScript source file under `dir` (relative to the repository), test files excluded. */
function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(child);
    }
  };
  walk(dir);
  return found;
}

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Raw SQL (`update executions`, `insert into executions`, `delete from executions`) or Drizzle writes of the table. */
const EXECUTIONS_WRITE = /\b(?:update\s+executions|insert\s+into\s+executions|delete\s+from\s+executions)\b|\.(?:update|insert|delete)\(\s*executions\b/i;
const STATE_OWNER = 'server/trading/execution-state/';

describe('module boundaries of the trading engine', () => {
  it('server/trading imports nothing from server/modules', () => {
    const offenders = sourcesUnder('server/trading').flatMap((file) => {
      const imports = [...read(file).matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]!);
      return imports
        .filter((spec) => spec.startsWith('.') && path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).startsWith('server/modules/'))
        .map((spec) => `${file} imports ${spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('server/modules enters trading through trading/intake.ts alone (exchange access and types aside)', () => {
    const allowed = (target: string) => target === 'server/trading/intake' || target === 'server/trading/config' || target.startsWith('server/trading/exchanges/');
    const offenders = sourcesUnder('server/modules').flatMap((file) => {
      const imports = [...read(file).matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]!);
      return imports
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)))
        .filter((target) => target.startsWith('server/trading/') && !allowed(target))
        .map((target) => `${file} imports ${target}`);
    });
    expect(offenders).toEqual([]);
  });

  it('no server file reads process.env but server/config.ts and the entry points', () => {
    const entryPoints = new Set(['server/config.ts', 'server/main.ts', 'server/worker.ts', 'server/demo/main.ts', 'server/cli/exchange-check.ts']);
    const readers = sourcesUnder('server').filter((file) => !entryPoints.has(file) && /process\.env\b/.test(read(file)));
    expect(readers).toEqual([]);
  });

  /** Benchmark fixtures that build a million rows set-based (generate_series) in an empty database: no transition runs there. */
  const BULK_LOAD_FIXTURES = ['bench/fixtures/activity.ts'];

  it(`only ${STATE_OWNER} writes the executions table`, () => {
    const writers = [...sourcesUnder('server'), ...sourcesUnder('bench'), ...sourcesUnder('scripts')].filter(
      (file) => !file.startsWith(STATE_OWNER) && !BULK_LOAD_FIXTURES.includes(file) && EXECUTIONS_WRITE.test(read(file)),
    );
    expect(writers).toEqual([]);
  });

  it('the scans see what they look for (a write and an upward import are recognised)', () => {
    expect(EXECUTIONS_WRITE.test('await tx.execute(sql`update executions set state = 1`)')).toBe(true);
    expect(EXECUTIONS_WRITE.test('insert into executions (order_id) values (1)')).toBe(true);
    expect(EXECUTIONS_WRITE.test('db.update(executions).set({})')).toBe(true);
    expect(EXECUTIONS_WRITE.test('select * from executions')).toBe(false);
    expect(sourcesUnder('server/trading').length).toBeGreaterThan(20);
    expect(sourcesUnder(STATE_OWNER).some((file) => EXECUTIONS_WRITE.test(read(file)))).toBe(true);
  });
});
