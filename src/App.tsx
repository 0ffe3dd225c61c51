import { lazy, Suspense, useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import LinearProgress from '@mui/material/LinearProgress';
import { ThemeProvider } from '@mui/material/styles';
import { I18nContextProvider } from 'ra-core';
import { LOGIN_PATH } from './authProvider/landing';
import { i18nProvider } from './i18n';
import { theme } from './layout/theme';
import { NotFoundPage } from './pages/NotFoundPage';
import { findBackOfficePath, publicPaths } from './pages/routes';
import { UnexpectedErrorPage } from './pages/UnexpectedErrorPage';
import { withChunkTimeout } from './pages/chunkTimeout';

/** The back office (react-admin, the layout, every resource screen) is one lazily loaded chunk. */
const BackOffice = lazy(() => withChunkTimeout(import('./layout/BackOffice')).then((module) => ({ default: module.BackOffice })));

/** Back-office URLs load the back office; any other unknown URL is the 404 page. */
function BackOfficeOrNotFound() {
  const { pathname } = useLocation();
  if (!findBackOfficePath(pathname)) return <NotFoundPage />;
  return (
    <Suspense fallback={<LinearProgress />}>
      <BackOffice />
    </Suspense>
  );
}

/** Public pages: each its own chunk, none of them importing react-admin's UI. */
const publicRoutes: RouteObject[] = [
  { path: publicPaths.login, lazy: () => withChunkTimeout(import('./pages/login/CustomerLoginPage')).then((m) => ({ Component: m.CustomerLoginPage })) },
  { path: publicPaths.staffLogin, lazy: () => withChunkTimeout(import('./pages/login/StaffLoginPage')).then((m) => ({ Component: m.StaffLoginPage })) },
  { path: publicPaths.register, lazy: () => withChunkTimeout(import('./pages/register/RegisterPage')).then((m) => ({ Component: m.RegisterPage })) },
  { path: publicPaths.connect, lazy: () => withChunkTimeout(import('./pages/connect/ConnectPage')).then((m) => ({ Component: m.ConnectPage })) },
  {
    path: publicPaths.exchangeSuccess,
    lazy: () => withChunkTimeout(import('./pages/connect/ExchangeSuccessPage')).then((m) => ({ Component: m.ExchangeSuccessPage })),
  },
  { path: publicPaths.terms, lazy: () => withChunkTimeout(import('./pages/legal/TermsPage')).then((m) => ({ Component: m.TermsPage })) },
  { path: publicPaths.privacy, lazy: () => withChunkTimeout(import('./pages/legal/PrivacyPage')).then((m) => ({ Component: m.PrivacyPage })) },
];

/** Every route of spec 2. */
export const routes: RouteObject[] = [
  {
    errorElement: <UnexpectedErrorPage />,
    // Shown while the first page's chunk loads.
    hydrateFallbackElement: <LinearProgress />,
    children: [
      { path: '/', element: <Navigate to={LOGIN_PATH} replace /> },
      ...publicRoutes,
      // Back-office routes and their roles: src/pages/routes.ts; screens: src/resources/index.ts.
      { path: '*', element: <BackOfficeOrNotFound /> },
    ],
  },
];

export function App() {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <I18nContextProvider value={i18nProvider}>
        <RouterProvider router={router} />
      </I18nContextProvider>
    </ThemeProvider>
  );
}
