import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import LinearProgress from '@mui/material/LinearProgress';
import type { Account } from '../../contract/api/account';
import type { AccountType } from '../../contract/enums';
import { currentAccount } from '../authProvider/api';
import { LOGIN_PATH } from '../authProvider/landing';
import { readToken } from '../dataProvider/token';
import { findBackOfficePath, rolesOf } from '../pages/routes';
import { AccountProvider } from './AccountContext';

type State = { status: 'loading' } | { status: 'denied' } | { status: 'ready'; account: Account };

function useAccountCheck(): State {
  const token = readToken();
  const [state, setState] = useState<State>(token ? { status: 'loading' } : { status: 'denied' });
  useEffect(() => {
    if (!token) {
      setState({ status: 'denied' });
      return;
    }
    let live = true;
    currentAccount().then(
      (account) => live && setState({ status: 'ready', account }),
      () => live && setState({ status: 'denied' }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

/**
 * The route guard of spec 2: a 401/403 from GET /api/account, or an account type not allowed on
 * the current route, sends the user to /auth/login.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const state = useAccountCheck();
  if (state.status === 'loading') return <LinearProgress />;
  const name = findBackOfficePath(pathname);
  const accountType = state.status === 'ready' ? (state.account.role.accountType as AccountType) : undefined;
  if (!name || accountType === undefined || !rolesOf(name).includes(accountType)) return <Navigate to={LOGIN_PATH} replace />;
  if (state.status !== 'ready') return <Navigate to={LOGIN_PATH} replace />;
  return <AccountProvider value={{ account: state.account, accountType }}>{children}</AccountProvider>;
}
