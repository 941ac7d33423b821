import { PASSWORD_RESET_TOKEN_PARAM } from '@fleet/contract';
import { useSearchParams } from 'react-router';
import { ResetRequestForm, SetPasswordForm } from '../../features/password-reset/password-reset-forms';

/** `/password_reset`: ask for a reset mail, or (with the link's token) set the new password. */
export function Component() {
  const [params] = useSearchParams();
  const token = params.get(PASSWORD_RESET_TOKEN_PARAM);
  return token ? <SetPasswordForm token={token} /> : <ResetRequestForm />;
}
