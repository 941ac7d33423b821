import { errorMessages, type CarDetail } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { messageOf } from '../../lib/api-client';
import { carDetailQuery } from './api';
import { CarNav } from './car-nav';
import { useCarIds } from './use-car-ids';

/**
 * Frame of every vehicle screen: loads the vehicle, shows its title and the
 * vehicle tabs, and hands the loaded vehicle to the screen.
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
  const ids = useCarIds();
  const q = useQuery(carDetailQuery(ids.car_id));
  const car = q.data;
  if (!ids.car_id) return <Alert color="yellow">車両が選択されていません。車両一覧から選んでください。</Alert>;
  return (
    <>
      <PageHeader
        title={title}
        description={
          car
            ? `${car.car_number}（${car.car_id}）${car.user ? ` ・ ${car.user.first_name} ${car.user.name}` : ''}`
            : undefined
        }
        actions={car && actions?.(car)}
      />
      {car && <CarNav carId={car.car_id} carDataId={car.car_data_id ?? ''} />}
      {q.isError ? (
        <Alert color="red" role="alert">
          {messageOf(q.error, errorMessages.fetchFailed)}
        </Alert>
      ) : car ? (
        children(car)
      ) : (
        <Skeleton h={360} />
      )}
    </>
  );
}
