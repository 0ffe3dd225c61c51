import { defineConfig } from 'vitest/config';

/** A run whose only test fails, with the suite's real global setup: its exit code must not be 0. */
export default defineConfig({
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['tests/helpers/failing-run/always-fails.check.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    globals: true,
    hookTimeout: 120_000,
  },
});
