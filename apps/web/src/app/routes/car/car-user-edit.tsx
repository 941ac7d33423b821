import { errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { carUserDetailQuery } from '../../../features/car-user/api';
import { carUserFormOf, CarUserFormView } from '../../../features/car-user/car-user-form';
import { messageOf } from '../../../lib/api-client';
import { useSelectedId } from '../../../lib/use-selected-id';

export function Component() {
  return (
    <>
      <PageHeader title="顧客編集" />
      <EditCarUser />
    </>
  );
}

function EditCarUser() {
  const id = useSelectedId('user_id');
  const q = useQuery(carUserDetailQuery(id));
  if (!id)
    return (
      <Alert color="red" role="alert">
        {errorMessages.notFound}
      </Alert>
    );
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, errorMessages.fetchFailed)}
      </Alert>
    );
  if (!q.data) return <Skeleton h={480} maw={880} />;
  return <CarUserFormView mode="edit" initial={carUserFormOf(q.data)} companyName={q.data.company_name} />;
}
