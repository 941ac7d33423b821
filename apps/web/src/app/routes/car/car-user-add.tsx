import { errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useNewCarUserId } from '../../../features/car-user/api';
import { emptyCarUser, CarUserFormView } from '../../../features/car-user/car-user-form';
import { carUserTexts } from '../../../features/car-user/texts';

export function Component() {
  const id = useNewCarUserId();
  return (
    <>
      <PageHeader title={carUserTexts.addTitle} />
      <QueryState query={id} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={480} maw={880} />}>
        {(newId) => <CarUserFormView mode="add" initial={emptyCarUser(newId, null)} />}
      </QueryState>
    </>
  );
}
