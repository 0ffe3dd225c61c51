import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = path.join(import.meta.dirname, 'migrations');
const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ idx: number; when: number; tag: string }> };

/**
 * drizzle's migrator applies, on a database already migrated, only the migrations whose journal time is
 * later than the last one applied: a migration merged from a branch with an earlier time would be
 * skipped on every upgrade (while a fresh database, migrated in file order, would not show it).
 */
describe('the migrations journal', () => {
  it('lists every migration file once, in file order, with strictly increasing times', () => {
    const files = readdirSync(folder).filter((name) => name.endsWith('.sql')).sort();
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
    expect(journal.entries.map((entry) => entry.idx)).toEqual(files.map((_, i) => i));
    for (let i = 1; i < journal.entries.length; i += 1) expect(journal.entries[i]!.when).toBeGreaterThan(journal.entries[i - 1]!.when);
  });
});
