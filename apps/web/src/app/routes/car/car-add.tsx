import { errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { CarFormView, emptyCar } from '../../../features/car/car-form';
import { newCarIdQuery } from '../../../features/car/form-api';
import { messageOf } from '../../../lib/api-client';

export function Component() {
  return (
    <>
      <PageHeader title="車両登録" />
      <NewCar />
    </>
  );
}

function NewCar() {
  const id = useQuery(newCarIdQuery());
  if (id.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(id.error, errorMessages.idGenerationFailed)}
      </Alert>
    );
  if (!id.data) return <Skeleton h={480} maw={880} />;
  return <CarFormView mode="add" initial={emptyCar(id.data)} deviceLocked={false} />;
}
