import { errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { AccountFormView } from '../../../features/account/account-form';
import { accountDetailQuery } from '../../../features/account/api';
import { messageOf } from '../../../lib/api-client';
import { useAccountId } from './use-account-id';

export function Component() {
  const id = useAccountId();
  const q = useQuery(accountDetailQuery(id));
  return (
    <>
      <PageHeader title="管理アカウント編集" />
      {q.isError ? (
        <Alert color="red" role="alert">
          {messageOf(q.error, errorMessages.fetchFailed)}
        </Alert>
      ) : q.data ? (
        <AccountFormView
          mode="edit"
          initial={{
            account_id: q.data.account_id,
            name: q.data.name,
            email: q.data.email,
            role: q.data.role,
            company_id: q.data.company_id,
            engine_control: q.data.engine_control,
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
