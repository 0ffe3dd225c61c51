import { PublicLayout } from '../public/PublicLayout';
import { LoginForm } from './LoginForm';

/** /admin/login: the staff login, which refuses customer accounts. */
export function StaffLoginPage() {
  return (
    <PublicLayout>
      <LoginForm variant="staff" />
    </PublicLayout>
  );
}
