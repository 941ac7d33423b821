import { errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { CarFormView, emptyCar } from '../../../features/car/car-form';
import { useNewCarId } from '../../../features/car/form-api';
import { carTexts } from '../../../features/car/texts';

export function Component() {
  const id = useNewCarId();
  return (
    <>
      <PageHeader title={carTexts.addTitle} />
      <QueryState query={id} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={480} maw={880} />}>
        {(newId) => <CarFormView mode="add" initial={emptyCar(newId)} deviceLocked={false} />}
      </QueryState>
    </>
  );
}
