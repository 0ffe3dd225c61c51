import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import LinearProgress from '@mui/material/LinearProgress';
import { useAuthenticated, useCanAccess, useGetIdentity } from 'react-admin';
import type { AppIdentity } from '../authProvider/authProvider';
import { LOGIN_PATH } from '../authProvider/landing';
import { NotFoundPage } from '../pages/NotFoundPage';
import { backOfficePaths, findBackOfficePath } from '../pages/routes';
import { AccountProvider } from './AccountContext';

/** react-admin's own pages for a refused check; they send the visitor to /auth/login. */
const REACT_ADMIN_PAGES = ['/access-denied', '/authentication-error'];
const IDENTITY_STALE_MS = 5 * 60 * 1000;

/**
 * The route guard of spec 2, on react-admin's auth: `checkAuth` (no cookie or a 401 signs out and
 * goes to /auth/login), then `canAccess` for the URL's resource and action from contract/access.ts
 * and, on role-prefixed URLs, the account type they belong to. A refused account (403) or route
 * goes to /auth/login without ending the session. URLs that are not the spec's show the 404 page.
 */
export function ScreenGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const name = findBackOfficePath(pathname);
  const route = name ? backOfficePaths[name] : undefined;
  const { authenticated, isPending: authPending } = useAuthenticated();
  const { identity, isPending: identityPending } = useGetIdentity({ enabled: authenticated === true, staleTime: IDENTITY_STALE_MS });
  const { canAccess, isPending: accessPending } = useCanAccess({
    resource: route?.access.resource ?? '',
    action: route?.access.action ?? '',
    enabled: route !== undefined && authenticated === true,
  });
  if (!route) return REACT_ADMIN_PAGES.includes(pathname) ? children : <NotFoundPage />;
  if (authPending) return <LinearProgress />;
  if (!authenticated) return null;
  if (identityPending || accessPending) return <LinearProgress />;
  const signedIn = identity as AppIdentity | undefined;
  const allowed = signedIn !== undefined && canAccess === true && (!('owner' in route) || route.owner === signedIn.accountType);
  if (!allowed) return <Navigate to={LOGIN_PATH} replace />;
  return <AccountProvider value={{ account: signedIn.account, accountType: signedIn.accountType }}>{children}</AccountProvider>;
}
