import { capabilities } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useCarDetail } from '../../../features/car/api';
import { carFormOf, CarFormView } from '../../../features/car/car-form';
import { carTexts } from '../../../features/car/texts';
import { actorOf, useSession } from '../../../lib/session-store';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const id = useSelection('car_id');
  const caps = capabilities(actorOf(useSession())!);
  const q = useCarDetail(id);
  return (
    <>
      <PageHeader title={carTexts.editTitle} />
      <QueryState query={q} missing={!id} loading={<Skeleton h={480} maw={880} />}>
        {(car) => {
          const { values, customer, device } = carFormOf(car);
          // Only the super admin may change a vehicle's terminal (carMessages.deviceChangeForbidden).
          return (
            <CarFormView
              mode="edit"
              initial={values}
              customer={customer}
              device={device}
              deviceLocked={!caps.superAdmin}
            />
          );
        }}
      </QueryState>
    </>
  );
}
