import {
  deviceAdd,
  deviceDelete,
  deviceExistCheck,
  deviceGetDetail,
  deviceUpdate,
  type DeviceEditFormInput,
  type DeviceFormInput,
} from '@fleet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';
import { generateCheckedId, newIdQuery } from '../../lib/use-id-generator';

/** Query keys of the GPS terminal domain; the terminal list shell uses `deviceKeys.all[0]` as its id. */
export const deviceKeys = { all: ['device'] as const, detail: (id: string) => ['device', 'detail', id] as const };

export const deviceDetailQuery = (car_device_id: string) =>
  queryOptions({
    queryKey: deviceKeys.detail(car_device_id),
    queryFn: ({ signal }) => callApi(deviceGetDetail, { car_device_id }, { signal }),
    enabled: !!car_device_id,
  });

export const useDeviceDetail = (car_device_id: string) => useQuery(deviceDetailQuery(car_device_id));

/** A fresh terminal id, checked with the server (docs/product.md §5). */
export const newDeviceIdQuery = () =>
  newIdQuery([...deviceKeys.all, 'new-id'], () => generateCheckedId(deviceExistCheck, 'car_device_id'));
export const useNewDeviceId = () => useQuery(newDeviceIdQuery());

export const useAddDevice = () =>
  useDomainMutation(deviceKeys.all[0], (info: DeviceFormInput) => callApi(deviceAdd, { info }));
export const useUpdateDevice = () =>
  useDomainMutation(deviceKeys.all[0], (info: DeviceEditFormInput) => callApi(deviceUpdate, { info }));
export const useDeleteDevice = () =>
  useDomainMutation(deviceKeys.all[0], (v: { car_device_id: string; car_data_id: string; isDelete: boolean }) =>
    callApi(deviceDelete, v),
  );
