import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqlFunctionTexts } from '../helpers/sql-functions';

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

/** Relative imports, re-exports and dynamic imports of a file, type-only ones included. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** The repository file an import names (`./x` -> `./x.ts`, `./x.tsx` or `./x/index.ts`), if it is one. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(path.join(root, candidate)));
}

/** The files' import graph: file -> the files of the set it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      [...read(file).matchAll(RELATIVE_IMPORT)].map((match) => resolveImport(file, match[1]!)).filter((target): target is string => target !== undefined && known.has(target)),
    ]),
  );
}

/** Every file the given files reach through their imports, themselves included. */
function reachableFrom(graph: Map<string, string[]>, starts: string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...starts];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    pending.push(...(graph.get(file) ?? []));
  }
  return reached;
}

/** Every import circle of the graph, each as its path (first file repeated at the end); a depth-first walk. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    if (done.has(file)) return;
    const at = onPath.indexOf(file);
    if (at >= 0) {
      circles.push([...onPath.slice(at), file]);
      return;
    }
    onPath.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return circles;
}

/** Raw SQL (`update executions`, `insert into executions`, `delete from executions`) or Drizzle writes of the table. */
const EXECUTIONS_WRITE = /\b(?:update\s+executions|insert\s+into\s+executions|delete\s+from\s+executions)\b|\.(?:update|insert|delete)\(\s*executions\b/i;
const STATE_OWNER = 'server/trading/execution-state/';

describe('module boundaries of the trading engine', () => {
  it('server/trading imports nothing from server/modules or server/http (its refusals are its own, answered by the API)', () => {
    const offenders = sourcesUnder('server/trading').flatMap((file) => {
      const imports = [...read(file).matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]!);
      return imports
        .filter((spec) => spec.startsWith('.') && path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).match(/^server\/(?:modules|http)\//))
        .map((spec) => `${file} imports ${spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('server/trading reaches no route module nor the HTTP layer, not even through a type of a file it imports', () => {
    const graph = importGraph(sourcesUnder('server'));
    const reached = [...reachableFrom(graph, sourcesUnder('server/trading'))].filter((file) => /^server\/(?:modules|http)\//.test(file));
    expect(reached).toEqual([]);
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

  it('of the SQL functions (server/db/functions), queue_order alone writes the executions table: it queues an alert\'s entries', () => {
    const writers = sqlFunctionTexts().filter((text) => EXECUTIONS_WRITE.test(text.body));
    expect(writers.map((text) => `${text.file}: ${text.name}`)).toEqual(['alert-intake.sql: queue_order']);
  });

  it('the scans see what they look for (a write and an upward import are recognised)', () => {
    expect(EXECUTIONS_WRITE.test('await tx.execute(sql`update executions set state = 1`)')).toBe(true);
    expect(EXECUTIONS_WRITE.test('insert into executions (order_id) values (1)')).toBe(true);
    expect(EXECUTIONS_WRITE.test('db.update(executions).set({})')).toBe(true);
    expect(EXECUTIONS_WRITE.test('select * from executions')).toBe(false);
    expect(sourcesUnder('server/trading').length).toBeGreaterThan(20);
    expect(sourcesUnder(STATE_OWNER).some((file) => EXECUTIONS_WRITE.test(read(file)))).toBe(true);
  });
  it('no import circles among the files of server/, bench/, contract/ and src/ (type-only imports count too)', () => {
    const files = ['server', 'bench', 'contract', 'src'].flatMap(sourcesUnder);
    expect(importCircles(importGraph(files)).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('the circle scan sees a circle, a type-only one and one through a re-export', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    const specs = (text: string) => [...text.matchAll(RELATIVE_IMPORT)].map((match) => match[1]);
    expect(specs("import type { A } from './a';\nexport { B } from '../b';\nconst c = await import('./c');\nimport x from 'pkg';")).toEqual(['./a', '../b', './c']);
    expect(resolveImport('server/trading/runtime.ts', './exchanges/types')).toBe('server/trading/exchanges/types.ts');
    expect(importGraph(['server/config.ts', 'server/trading/config.ts']).get('server/config.ts')).toEqual(['server/trading/config.ts']);
  });
});
