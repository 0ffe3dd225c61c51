import { statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest runs the projects one after the other (e2e, server, web): three browser files at once keep
 * both cores busy while, later, the server files mostly wait on PostgreSQL and the sandbox. This order
 * mixes them: one browser file, then two others, the longest first (the last run's durations, or the
 * file's size on a clean clone, which has none), so that a busy core and a waiting one overlap.
 */
class MixedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ordered = this.knowsDurations(sorted) ? sorted : [...sorted].sort((a, b) => sizeOf(b) - sizeOf(a));
    const browser = ordered.filter((file) => file.project.name === 'e2e');
    const others = ordered.filter((file) => file.project.name !== 'e2e');
    const mixed: TestSpecification[] = [];
    while (browser.length || others.length) {
      if (browser.length) mixed.push(browser.shift()!);
      mixed.push(...others.splice(0, 2));
    }
    return mixed;
  }

  private knowsDurations(files: TestSpecification[]): boolean {
    return files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${file.moduleId.slice(this.ctx.config.root.length + 1)}`) !== undefined);
  }
}

function sizeOf(file: TestSpecification): number {
  return statSync(file.moduleId).size;
}

export default defineConfig({
  test: {
    // Vitest runs (cores - 1) files at once by default: one on the 2-core CI machine, where most test
    // time is spent waiting on PostgreSQL, the sandbox or the browser. Two at once: 773 s -> 553 s;
    // three (with the server files sharing their module graph): 727 s -> 466 s. Four saturate both cores.
    maxWorkers: 3,
    sequence: { sequencer: MixedSequencer },
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/engine/*.test.ts', 'tests/chaos/*.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts'],
          globals: true,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One module graph per worker, not per file: importing the server (ccxt, Fastify, Drizzle) took
          // 430 of 690 s summed over the files. Each file has its own database, sandbox and app; what is
          // per process (the engine's metrics) keys by more than a database id.
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          globals: true,
          // Deadlines, not speed goals: a form typed key by key takes seconds on a loaded machine.
          testTimeout: 60_000,
          // One module graph per worker instead of per file: react-admin, MUI and jsdom are loaded
          // twice a run, not forty times (the setup file resets the only module state, the session).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/e2e/global-build.ts'],
          globals: true,
          // A test walks up to twenty pages, each loaded afresh: a deadline generous enough for a loaded machine.
          testTimeout: 240_000,
          hookTimeout: 240_000,
          // Files in parallel (two at once, the root maxWorkers) and beside the server and web files, not
          // one by one after them: a file mostly waits on its browser and server, the other core works meanwhile.
          pool: 'forks',
        },
      },
    ],
  },
});
