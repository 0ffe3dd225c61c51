import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest runs (cores - 1) files at once by default: one on the 2-core CI machine, where most test
    // time is spent waiting on PostgreSQL, the sandbox or the browser. Two at once: 773 s -> 553 s;
    // three (the server files sharing the packages): 727 s -> about 520 s. Four saturate both cores.
    maxWorkers: 3,
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
          // The packages load once per worker, not per file (importing ccxt, Fastify and Drizzle was 430 of
          // 690 s summed); our own modules load afresh per file (fresh-modules.ts), so what they keep per
          // process (the exchange limiter and its bans) does not leak into the next file.
          isolate: false,
          setupFiles: ['tests/helpers/fresh-modules.ts'],
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
          // A test walks up to twenty pages: a deadline generous enough for a loaded machine.
          testTimeout: 240_000,
          hookTimeout: 240_000,
          // Files in parallel (three at once, the root maxWorkers) and beside the server and web files, not
          // one by one after them: a file mostly waits on its browser and server, the other core works meanwhile.
          pool: 'forks',
          // As the server files: the packages (Playwright, Fastify, ccxt) load once per worker, our modules per file.
          isolate: false,
          setupFiles: ['tests/helpers/fresh-modules.ts'],
        },
      },
    ],
  },
});
