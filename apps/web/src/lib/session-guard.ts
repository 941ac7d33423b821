import { redirect } from 'react-router';
import { paths } from './paths';
import { useSession } from './session-store';

export type WarningReason = 'missing' | 'invalid';
export const warningUrl = (reason: WarningReason) => `${paths.warning}?reason=${reason}`;

/** A verified token is trusted for this long before the next check call. */
const RECHECK_MS = 60_000;
let verified: { token: string; at: number } | null = null;

/**
 * Loader of the default layout (docs/product.md §6): a stored account id and token must
 * exist and the token must pass the check call, else /warning.
 */
export async function sessionGuard() {
  const { account_id, token, signOut } = useSession.getState();
  if (!account_id || !token) throw redirect(warningUrl('missing'));
  if (verified?.token === token && Date.now() - verified.at < RECHECK_MS) return null;
  // The check call needs the API client and zod, which the login screen goes without.
  const { checkSessionToken } = await import('./check-token');
  const { ok } = await checkSessionToken(account_id, token);
  if (!ok) {
    verified = null;
    signOut();
    throw redirect(warningUrl('invalid'));
  }
  verified = { token, at: Date.now() };
  return null;
}

export const forgetVerifiedToken = () => {
  verified = null;
};
