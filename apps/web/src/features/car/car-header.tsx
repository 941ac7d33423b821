import type { CarDetail } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryState } from '../../components/edit-shell/detail-shell';
import { PageHeader } from '../../components/page-header';
import { useRememberSelection, useSelection } from '../../lib/use-selection';
import { useCarDetail } from './api';
import { CarNav } from './car-nav';
import { carTexts } from './texts';

/**
 * Frame of every vehicle screen: the `{car_id?}/{car_data_id?}` of the URL (else the vehicle last
 * selected, remembered here and on the server), its title and the vehicle tabs; the loaded vehicle
 * goes to the screen.
 */
export function CarScreen({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: (car: CarDetail) => ReactNode;
  children: (car: CarDetail) => ReactNode;
}) {
  const car_id = useSelection('car_id');
  const car_data_id = useSelection('car_data_id');
  useRememberSelection({ car_id, car_data_id });
  const q = useCarDetail(car_id);
  const car = q.data;
  if (!car_id) return <Alert color="yellow">{carTexts.noneSelected}</Alert>;
  return (
    <>
      <PageHeader
        title={title}
        description={
          car ? carTexts.header(car, car.user ? `${car.user.first_name} ${car.user.name}` : undefined) : undefined
        }
        actions={car && actions?.(car)}
      />
      {car && <CarNav carId={car.car_id} carDataId={car.car_data_id ?? ''} />}
      <QueryState query={q} loading={<Skeleton h={360} />}>
        {children}
      </QueryState>
    </>
  );
}
