import { LOGIN_PATH } from '../authProvider/landing';
import { RedirectOnce } from './RedirectOnce';

/** Spec 2's route guard: a refused account or route goes to /auth/login (the session is kept). */
export function ToLogin() {
  return <RedirectOnce to={LOGIN_PATH} />;
}
