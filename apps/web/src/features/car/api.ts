import { carDelete, carGetDetail, carStatusUpdate } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of the vehicle domain; the vehicle list shell uses `carKeys.all[0]` as its id. */
export const carKeys = { all: ['car'] as const, detail: (id: string) => ['car', 'detail', id] as const };

export const carDetailQuery = (car_id: string) =>
  queryOptions({ queryKey: carKeys.detail(car_id), queryFn: ({ signal }) => callApi(carGetDetail, { car_id }, { signal }), enabled: !!car_id });

export const useDeleteCar = () => useDomainMutation(carKeys.all[0], (v: { car_id: string; isDelete: boolean }) => callApi(carDelete, v));
export const useUpdateCarStatus = () => useDomainMutation(carKeys.all[0], (v: { car_id: string; car_status: number }) => callApi(carStatusUpdate, v));
