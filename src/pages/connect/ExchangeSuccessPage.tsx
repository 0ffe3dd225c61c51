import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import LinearProgress from '@mui/material/LinearProgress';
import { ui } from '../../../contract/messages';
import { startSession } from '../../authProvider/api';
import { publicPaths } from '../routes';

/** Where the exchange sends the customer back after quick connect (spec 2). */
export function exchangeSuccessTarget(search: URLSearchParams): { token?: string; to: string } {
  const token = search.get('accessToken');
  if (!token) return { to: publicPaths.register };
  const platformType = search.get('platformType') ?? '';
  return { token, to: `/customer/dashboard?success=True&platformType=${encodeURIComponent(platformType)}` };
}

/** /auth/exchange/success: stores the token cookie and opens the customer dashboard. */
export function ExchangeSuccessPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const { token, to } = exchangeSuccessTarget(search);
    if (token) startSession(token);
    else console.warn(ui.access.accessTokenMissing);
    navigate(to, { replace: true });
  }, [search, navigate]);
  return <LinearProgress />;
}
