import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest runs (cores - 1) files at once by default: one on the 2-core CI machine, where most test
    // time is spent waiting on PostgreSQL, the sandbox or the browser. Two at once: 773 s -> 553 s.
    maxWorkers: 2,
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
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          globals: true,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/e2e/global-build.ts'],
          globals: true,
          testTimeout: 90_000,
          hookTimeout: 240_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
