import { PublicLayout } from '../public/PublicLayout';
import { LoginForm } from './LoginForm';

/** /auth/login: everyone may sign in here; the forgot-password modal first tells customers to ask their agent. */
export function CustomerLoginPage() {
  return (
    <PublicLayout>
      <LoginForm variant="customer" />
    </PublicLayout>
  );
}
