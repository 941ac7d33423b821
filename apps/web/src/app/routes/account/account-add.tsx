import { defaultEngineControl, errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { AccountFormView } from '../../../features/account/account-form';
import { useNewAccountId } from '../../../features/account/api';
import { accountTexts } from '../../../features/account/texts';
import { useSession } from '../../../lib/session-store';

export function Component() {
  const companyId = useSession((s) => s.company_id);
  const id = useNewAccountId();
  return (
    <>
      <PageHeader title={accountTexts.addTitle} />
      <QueryState query={id} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={320} />}>
        {(account_id) => (
          <AccountFormView
            mode="add"
            initial={{
              account_id,
              name: '',
              email: '',
              role: 2,
              company_id: companyId,
              engine_control: defaultEngineControl(2),
              password: '',
              password_confirm: '',
            }}
          />
        )}
      </QueryState>
    </>
  );
}
