import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import LinearProgress from '@mui/material/LinearProgress';
import { useAuthenticated, useCanAccess, useGetIdentity } from 'react-admin';
import { isSigningOut } from '../authProvider/api';
import type { AppIdentity } from '../authProvider/authProvider';
import { LOGIN_PATH } from '../authProvider/landing';
import { readToken } from '../dataProvider/token';
import { NotFoundPage } from '../pages/NotFoundPage';
import { backOfficePaths, findBackOfficePath } from '../pages/routes';
import { AccountProvider } from './AccountContext';
import { RedirectOnce } from './RedirectOnce';

/** react-admin's own pages for a refused check; they send the visitor to /auth/login. */
const REACT_ADMIN_PAGES = ['/access-denied', '/authentication-error'];
const IDENTITY_STALE_MS = 5 * 60 * 1000;

/**
 * The route guard of spec 2, on react-admin's auth: `checkAuth` (a 401 signs out and goes to
 * /auth/login), then `canAccess` for the URL's resource and action from contract/access.ts and, on
 * role-prefixed URLs, the account type they belong to. A refused account (403) or route goes to
 * /auth/login without ending the session. URLs that are not the spec's show the 404 page.
 * Without the session cookie nothing below is mounted: nothing polls, and a log-out in progress
 * leads to its own login page.
 */
export function ScreenGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const name = findBackOfficePath(pathname);
  const route = name ? backOfficePaths[name] : undefined;
  const hasSession = readToken() !== undefined;
  const { authenticated, isPending: authPending } = useAuthenticated({ enabled: hasSession });
  const signedInCheck = hasSession && authenticated === true;
  const { identity, isPending: identityPending } = useGetIdentity({ enabled: signedInCheck, staleTime: IDENTITY_STALE_MS });
  const { canAccess, isPending: accessPending } = useCanAccess({
    resource: route?.access.resource ?? '',
    action: route?.access.action ?? '',
    enabled: route !== undefined && signedInCheck,
  });
  if (!route) return REACT_ADMIN_PAGES.includes(pathname) ? children : <NotFoundPage />;
  if (!hasSession) return isSigningOut() ? null : <RedirectOnce to={LOGIN_PATH} />;
  if (authPending) return <LinearProgress />;
  // A refused checkAuth (401) signs out; react-admin then goes to the login page.
  if (!authenticated) return null;
  if (identityPending || accessPending) return <LinearProgress />;
  const signedIn = identity as AppIdentity | undefined;
  const allowed = signedIn !== undefined && canAccess === true && (!('owner' in route) || route.owner === signedIn.accountType);
  if (!allowed) return <RedirectOnce to={LOGIN_PATH} />;
  return <AccountProvider value={{ account: signedIn.account, accountType: signedIn.accountType }}>{children}</AccountProvider>;
}
