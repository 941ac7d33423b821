import { useParams } from 'react-router';
import { useSession } from '../../../lib/session-store';

/** `{account_id?}`: the id in the URL, or the signed-in account's own. */
export const useAccountId = () => {
  const { account_id } = useParams();
  const own = useSession((s) => s.account_id);
  return account_id || own || '';
};
