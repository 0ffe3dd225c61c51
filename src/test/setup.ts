import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { endSession, startSession } from '../authProvider/api';
import { removeToken } from '../dataProvider/token';
import { server } from './msw';

// The machine is shared: give findBy/waitFor time under load (a wait never passes a wrong answer).
configure({ asyncUtilTimeout: 15_000 });

beforeAll(async () => {
  // A worker runs file after file in one module graph (isolate: false in vitest.config.ts): each file
  // starts as a fresh page would, signed out, with no account or sign-out remembered from the last one.
  await endSession();
  startSession('');
  removeToken();
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
});
afterAll(() => server.close());
