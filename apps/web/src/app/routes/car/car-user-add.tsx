import { errorMessages, userExistCheck } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { emptyCarUser, CarUserFormView } from '../../../features/car-user/car-user-form';
import { generateCheckedId } from '../../../lib/use-id-generator';

export function Component() {
  return (
    <>
      <PageHeader title="顧客登録" />
      <NewCarUser />
    </>
  );
}

function NewCarUser() {
  const id = useQuery({
    queryKey: ['carUser', 'new-id'],
    queryFn: () => generateCheckedId(userExistCheck, 'user_id'),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  if (id.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessages.idGenerationFailed}
      </Alert>
    );
  if (!id.data) return <Skeleton h={480} maw={880} />;
  return <CarUserFormView mode="add" initial={emptyCarUser(id.data, null)} />;
}
