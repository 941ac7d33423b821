import {
  deviceAdd,
  deviceDelete,
  deviceGetDetail,
  deviceUpdate,
  type DeviceEditFormInput,
  type DeviceFormInput,
} from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of the GPS terminal domain; the terminal list shell uses `deviceKeys.all[0]` as its id. */
export const deviceKeys = { all: ['device'] as const, detail: (id: string) => ['device', 'detail', id] as const };

export const deviceDetailQuery = (car_device_id: string) =>
  queryOptions({
    queryKey: deviceKeys.detail(car_device_id),
    queryFn: ({ signal }) => callApi(deviceGetDetail, { car_device_id }, { signal }),
    enabled: !!car_device_id,
  });

export const useAddDevice = () =>
  useDomainMutation(deviceKeys.all[0], (info: DeviceFormInput) => callApi(deviceAdd, { info }));
export const useUpdateDevice = () =>
  useDomainMutation(deviceKeys.all[0], (info: DeviceEditFormInput) => callApi(deviceUpdate, { info }));
export const useDeleteDevice = () =>
  useDomainMutation(deviceKeys.all[0], (v: { car_device_id: string; car_data_id: string; isDelete: boolean }) =>
    callApi(deviceDelete, v),
  );
