import { Navigate } from 'react-router-dom';
import { LOGIN_PATH } from '../authProvider/landing';

/** Spec 2's route guard: a refused account or route goes to /auth/login (the session is kept). */
export function ToLogin() {
  return <Navigate to={LOGIN_PATH} replace />;
}
