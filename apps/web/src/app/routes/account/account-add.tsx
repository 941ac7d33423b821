import { accountExistCheck, defaultEngineControl, errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { AccountFormView } from '../../../features/account/account-form';
import { useSession } from '../../../lib/session-store';
import { generateCheckedId } from '../../../lib/use-id-generator';

export function Component() {
  const companyId = useSession((s) => s.company_id);
  const id = useQuery({
    queryKey: ['account', 'new-id'],
    queryFn: () => generateCheckedId(accountExistCheck, 'account_id'),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  return (
    <>
      <PageHeader title="管理アカウント登録" />
      {id.isError ? (
        <Alert color="red" role="alert">
          {errorMessages.idGenerationFailed}
        </Alert>
      ) : id.data ? (
        <AccountFormView
          mode="add"
          initial={{
            account_id: id.data,
            name: '',
            email: '',
            role: 2,
            company_id: companyId,
            engine_control: defaultEngineControl(2),
            password: '',
            password_confirm: '',
          }}
        />
      ) : (
        <Skeleton h={320} />
      )}
    </>
  );
}
