import { http, HttpResponse, ws } from 'msw';
import { setupServer } from 'msw/node';
import type { z } from 'zod';
import type { Account } from '../../contract/api/account';
import { NOTIFICATIONS_PATH } from '../../contract/api/audit';
import { AccountStatus, AccountType } from '../../contract/enums';
import type { RouteDef } from '../../contract/route';

/** Accepts the notifications socket that the layout opens for staff; tests add their own listener to push messages. */
const notifications = ws.link(new URL(NOTIFICATIONS_PATH, window.location.origin.replace(/^http/, 'ws')).toString());

/** The kill switches' state, read by the strategy page, the customer page and the staff dashboard: running unless a test says otherwise. */
const running = () => HttpResponse.json({ successful: true, data: { paused: false, pausedAt: null, reason: null, resumeAt: null }, error: null });
const pauseStates = ['/api/platform/pause', '/api/strategy/:id/pause', '/api/customer/:id/pause'].map((path) => http.get(`${window.location.origin}${path}`, running));

/** The latest close-all of each kill switch: none unless a test says otherwise. */
const noCloseAll = () => HttpResponse.json({ successful: true, data: { last: null }, error: null });
const closeAllStates = ['/api/platform/close-all', '/api/strategy/:id/close-all', '/api/customer/:id/close-all'].map((path) =>
  http.get(`${window.location.origin}${path}`, noCloseAll),
);

/** The guards, read by the strategy page and the customer page: none set unless a test says otherwise. */
const guards = [
  http.get(`${window.location.origin}/api/strategy/:id/guards`, () =>
    HttpResponse.json({ successful: true, data: { maxAlertAgeS: null, maxSlippageBps: null, defaultMaxAlertAgeS: 60 }, error: null }),
  ),
  http.get(`${window.location.origin}/api/customer/:id/guards`, () =>
    HttpResponse.json({ successful: true, data: { maxNotionalUsdt: null, maxLeverage: null, maxOpenPositions: null, minFreeBalanceUsdt: null, dailyLossLimitUsdt: null, maxDrawdownPct: null, lossGuardResume: 'staff' }, error: null }),
  ),
];

/** Execution quality on the strategy page: no copies unless a test says otherwise. */
const quality = http.get(`${window.location.origin}/api/strategy/:id/quality`, () =>
  HttpResponse.json({
    successful: true,
    data: { days: 30, executions: 0, filled: 0, fillRate: null, p50AckMs: null, p95AckMs: null, p50FillMs: null, p95FillMs: null, meanSlippageBps: null, p95SlippageBps: null, skipped: [], daily: [] },
    error: null,
  }),
);

/** A customer's results on their dashboard and page: none unless a test says otherwise. */
const results = http.get(`${window.location.origin}/api/customer/:id/results`, () => HttpResponse.json({ successful: true, data: { days: [], openPositions: [] }, error: null }));

/** The msw server of the web tests; each test adds its handlers with `server.use(...)`. */
export const server = setupServer(notifications.addEventListener('connection', () => undefined), ...pauseStates, ...closeAllStates, ...guards, quality, results);

/** A successful envelope carrying `data`, typed by the route it answers. */
export function ok<R extends RouteDef>(_route: R, data: z.input<R['data']>) {
  return { successful: true, data, error: null };
}

/** A refused envelope with the server's message. */
export function failed(message: string) {
  return { successful: false, data: null, error: { message } };
}

/** A full URL of the API as the app calls it (jsdom's origin). */
export function apiUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/** An account as GET /api/account answers it. */
export function accountOf(accountType: AccountType, overrides: Partial<Account> = {}): Account {
  return {
    id: 7,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    age: 36,
    phone: '+6591234567',
    gender: 2,
    country: { id: 1, name: 'Singapore', imageUrl: '/flags/sg.svg', countryCode: 'SG' },
    status: AccountStatus.Active,
    datetimeInserted: '2025-01-15T08:00:00.000Z',
    role: { accountType },
    ...overrides,
  };
}

export { AccountType };
