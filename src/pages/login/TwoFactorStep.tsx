import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthContext } from 'ra-core';
import { authProvider } from '../../authProvider/authProvider';
import { TwoFactorDialog, type PendingLogin } from './TwoFactorDialog';

const queryClient = new QueryClient();

/**
 * The code step of the sign-in with what react-admin's `useLogin` needs (the authProvider and a
 * query client). Loaded once the password is accepted, so the login page itself stays light; the
 * back office shares this code.
 */
export function TwoFactorStep(props: { pending: PendingLogin | undefined; onCancel: () => void }) {
  return (
    <AuthContext.Provider value={authProvider}>
      <QueryClientProvider client={queryClient}>
        <TwoFactorDialog {...props} />
      </QueryClientProvider>
    </AuthContext.Provider>
  );
}
