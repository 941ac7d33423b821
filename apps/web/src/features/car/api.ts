import { carDelete, carGetDetail, carList, carSearchColumns, carStatusUpdate } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of the vehicle domain; the vehicle list shell uses `carKeys.all[0]` as its id. */
export const carKeys = {
  all: ['car'] as const,
  detail: (id: string) => ['car', 'detail', id] as const,
  byDataId: (carDataId: string) => ['car', 'by-data-id', carDataId] as const,
};

export const carDetailQuery = (car_id: string) =>
  queryOptions({
    queryKey: carKeys.detail(car_id),
    queryFn: ({ signal }) => callApi(carGetDetail, { car_id }, { signal }),
    enabled: !!car_id,
  });

const imeiSearch = String(carSearchColumns.findIndex((c) => c.key === 'car_data_id'));

/** The vehicle a terminal (IMEI) belongs to, for screens addressed by IMEI alone; null when none. */
export const carByDataIdQuery = (car_data_id: string) =>
  queryOptions({
    queryKey: carKeys.byDataId(car_data_id),
    queryFn: async ({ signal }) => {
      const { list } = await callApi(
        carList,
        { search_item: imeiSearch, search_text: car_data_id, isDelete: true, limit: 20 },
        { signal },
      );
      return (
        list.find((c) => c.car_data_id === car_data_id && !c.isDelete) ??
        list.find((c) => c.car_data_id === car_data_id) ??
        null
      );
    },
    enabled: !!car_data_id,
  });

export const useDeleteCar = () =>
  useDomainMutation(carKeys.all[0], (v: { car_id: string; isDelete: boolean }) => callApi(carDelete, v));
export const useUpdateCarStatus = () =>
  useDomainMutation(carKeys.all[0], (v: { car_id: string; car_status: number }) => callApi(carStatusUpdate, v));
