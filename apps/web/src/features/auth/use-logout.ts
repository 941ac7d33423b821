import { logout } from '@fleet/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { callApi } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { forgetVerifiedToken } from '../../lib/session-guard';
import { useSession } from '../../lib/session-store';

/** Revokes the token on the server (best effort), clears the session and returns to login (docs/product.md §4). */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await callApi(logout, {}).catch(() => undefined);
    useSession.getState().signOut();
    forgetVerifiedToken();
    queryClient.clear();
    await navigate(paths.login, { replace: true });
  };
}
