import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { AccountFormView } from '../../../features/account/account-form';
import { useAccountDetail } from '../../../features/account/api';
import { accountTexts } from '../../../features/account/texts';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const q = useAccountDetail(useSelection('account_id'));
  return (
    <>
      <PageHeader title={accountTexts.editTitle} />
      <QueryState query={q} loading={<Skeleton h={320} />}>
        {(a) => (
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
        )}
      </QueryState>
    </>
  );
}
