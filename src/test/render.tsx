import type { ReactElement } from 'react';
import { render, waitFor, type RenderResult } from '@testing-library/react';
import { expect } from 'vitest';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AdminContext, memoryStore } from 'react-admin';
import Cookies from 'js-cookie';
import { accountRoutes } from '../../contract/api/account';
import type { AccountType } from '../../contract/enums';
import { authProvider } from '../authProvider/authProvider';
import { ResultPopupProvider } from '../components/ResultPopupProvider';
import { dataProvider } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { i18nProvider } from '../i18n';
import { AccountProvider } from '../layout/AccountContext';
import { theme } from '../layout/theme';
import { accountOf, apiUrl, ok, server } from './msw';

export interface RenderOptions {
  /** The route pattern the element is mounted on (e.g. '/customer/:customerId'). */
  path?: string;
  /** The URL to start at (defaults to `path`). */
  url?: string;
  /** Signed in as this account type (a token cookie is set and GET /api/account answers it). */
  accountType?: AccountType;
}

let currentLocation = '';
function LocationProbe() {
  const location = useLocation();
  currentLocation = `${location.pathname}${location.search}`;
  return null;
}

/**
 * Mounts a back-office component with react-admin's contexts (the real data provider, authProvider
 * and i18n), the result popup, a memory router and the signed-in account. `location()` reads the
 * current URL; `settled()` waits until every query (access checks included) has answered.
 */
export function renderWithAdmin(element: ReactElement, options: RenderOptions = {}): RenderResult & { location: () => string; settled: () => Promise<void> } {
  const queryClient = createQueryClient();
  const path = options.path ?? '/';
  let content = element;
  if (options.accountType !== undefined) {
    const account = accountOf(options.accountType);
    Cookies.set('accessToken', `token-${options.accountType}`, { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(ok(accountRoutes.me, account))));
    content = <AccountProvider value={{ account, accountType: options.accountType }}>{element}</AccountProvider>;
  }
  const result = render(
    <MemoryRouter initialEntries={[options.url ?? path]}>
      <AdminContext queryClient={queryClient} dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()} theme={theme}>
        <ResultPopupProvider>
          <Routes>
            <Route path={path} element={content} />
            <Route path="*" element={null} />
          </Routes>
        </ResultPopupProvider>
        <LocationProbe />
      </AdminContext>
    </MemoryRouter>,
  );
  // Every react-admin query (checkAuth, canAccess, data) has answered: disabled controls are final.
  const settled = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return Object.assign(result, { location: () => currentLocation, settled });
}

/** Mounts a public page (no react-admin UI) with the i18n context and a memory router. */
export { renderPublic } from './renderPublic';
