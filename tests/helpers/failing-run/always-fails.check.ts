import { expect, it } from 'vitest';

it('fails on purpose (run only by tests/api/exit-code.test.ts)', () => {
  expect(1).toBe(2);
});
