import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { capabilities } from '@fleet/contract';
import { AccountFormView } from '../../../features/account/account-form';
import { useAccountDetail } from '../../../features/account/api';
import { accountTexts } from '../../../features/account/texts';
import { AccountGroupsPanel } from '../../../features/groups/account-groups-panel';
import { actorOf, useSession } from '../../../lib/session-store';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const q = useAccountDetail(useSelection('account_id'));
  const actor = actorOf(useSession())!;
  const mayLimit = capabilities(actor).manageAccounts;
  return (
    <>
      <PageHeader title={accountTexts.editTitle} />
      <QueryState query={q} loading={<Skeleton h={320} />}>
        {(a) => (
          <>
            <AccountFormView
              mode="edit"
              initial={{
                account_id: a.account_id,
                name: a.name,
                email: a.email,
                role: a.role,
                company_id: a.company_id,
                engine_control: a.engine_control,
                password: '',
                password_confirm: '',
              }}
            />
            {/* Another account of a company: it may be limited to some of the company's groups (docs/groups.md). */}
            {mayLimit && a.company_id && a.account_id !== actor.account_id && (
              <AccountGroupsPanel accountId={a.account_id} companyId={a.company_id} />
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
