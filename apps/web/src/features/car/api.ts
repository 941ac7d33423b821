import {
  carDataSync,
  carDelete,
  carGetDetail,
  carGetGpsLog,
  carList,
  carSearchColumns,
  carStatusUpdate,
  carTrips,
} from '@fleet/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of the vehicle domain; the vehicle list shell uses `carKeys.all[0]` as its id. */
export const carKeys = {
  all: ['car'] as const,
  detail: (id: string) => ['car', 'detail', id] as const,
  byDataId: (carDataId: string) => ['car', 'by-data-id', carDataId] as const,
  route: (carDataId: string, range: { from: string; to: string }) => ['car', 'route', carDataId, range] as const,
  trips: (carDataId: string, range: { from: string; to: string }) => ['car', 'trips', carDataId, range] as const,
};

export const carDetailQuery = (car_id: string) =>
  queryOptions({
    queryKey: carKeys.detail(car_id),
    queryFn: ({ signal }) => callApi(carGetDetail, { car_id }, { signal }),
    enabled: !!car_id,
  });

export const useCarDetail = (car_id: string) => useQuery(carDetailQuery(car_id));

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

export const useCarByDataId = (car_data_id: string) => useQuery(carByDataIdQuery(car_data_id));

/** The terminal's GPS points of a period, oldest first, thinned by the server to at most 5,000. */
export const useCarRoute = (car_data_id: string, range: { from: string; to: string }) =>
  useQuery({
    queryKey: carKeys.route(car_data_id, range),
    queryFn: ({ signal }) =>
      callApi(carGetGpsLog, { car_data_id, from: range.from, to: range.to, max_points: 5000 }, { signal }),
    enabled: !!car_data_id,
  });

/** The trips and stops of the same period (docs/trips.md), for the route's stop markers; `enabled` false skips it. */
export const useCarRouteTrips = (car_data_id: string, range: { from: string; to: string }, enabled = true) =>
  useQuery({
    queryKey: carKeys.trips(car_data_id, range),
    queryFn: ({ signal }) => callApi(carTrips, { car_data_id, from: range.from, to: range.to }, { signal }),
    enabled: enabled && !!car_data_id,
  });

/** Rebuilds the vehicle's latest state from its past data (car_data_sync); the detail is read again after. */
export function useSyncCarData(car_id: string, car_data_id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(carDataSync, { car_id, car_data_id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: carKeys.detail(car_id) }),
  });
}

export const useDeleteCar = () =>
  useDomainMutation(carKeys.all[0], (v: { car_id: string; isDelete: boolean }) => callApi(carDelete, v));
export const useUpdateCarStatus = () =>
  useDomainMutation(carKeys.all[0], (v: { car_id: string; car_status: number }) => callApi(carStatusUpdate, v));
