import { Navigate } from 'react-router';
import { LoginForm } from '../../features/auth/login-form';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session-store';

/** `/`: the login screen; a signed-in user goes straight to the vehicle list. */
export function Component() {
  const token = useSession((s) => s.token);
  return token ? <Navigate to={paths.car.list} replace /> : <LoginForm />;
}
