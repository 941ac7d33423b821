import { capabilities, errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { carDetailQuery } from '../../../features/car/api';
import { carFormOf, CarFormView } from '../../../features/car/car-form';
import { messageOf } from '../../../lib/api-client';
import { actorOf, useSession } from '../../../lib/session-store';
import { useSelectedId } from '../../../lib/use-selected-id';

export function Component() {
  return (
    <>
      <PageHeader title="車両編集" />
      <EditCar />
    </>
  );
}

function EditCar() {
  const id = useSelectedId('car_id');
  const caps = capabilities(actorOf(useSession())!);
  const q = useQuery(carDetailQuery(id));
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
  const { values, customer, device } = carFormOf(q.data);
  // Only the super admin may change a vehicle's terminal (carMessages.deviceChangeForbidden).
  return (
    <CarFormView mode="edit" initial={values} customer={customer} device={device} deviceLocked={!caps.superAdmin} />
  );
}
