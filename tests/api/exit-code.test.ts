import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the test run itself', () => {
  it('exits non-zero when a test fails, with the embedded PostgreSQL of the global setup started and stopped', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/helpers/failing-run/vitest.config.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TEST_DATABASE_URL: '' },
      timeout: 180_000,
    });
    expect(run.stdout + run.stderr).toContain('1 failed');
    expect(run.status).toBe(1);
  }, 200_000);
});
