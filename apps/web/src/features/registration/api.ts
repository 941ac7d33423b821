import {
  carGetNewid,
  carUserDeviceAdd,
  deviceExistCheck,
  deviceMessages,
  userExistCheck,
  type CarUserDeviceAddInput,
} from '@fleet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { generateCheckedId, newIdQuery } from '../../lib/use-id-generator';

/** The three fresh ids of one wizard run (customer, terminal, vehicle); a new run asks for new ones. */
export const useNewRegistrationIds = (run: number) =>
  useQuery(
    newIdQuery(['registration', 'new-ids', run], async (signal) => ({
      user_id: await generateCheckedId(userExistCheck, 'user_id'),
      car_device_id: await generateCheckedId(deviceExistCheck, 'car_device_id'),
      car_id: (await callApi(carGetNewid, {}, { signal })).newid,
    })),
  );

/** The wizard's one call: customer, terminal and vehicle in one server transaction. It touches three domains, so every cached query is refreshed. */
export function useRegisterAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: CarUserDeviceAddInput) => callApi(carUserDeviceAdd, v),
    onSuccess: () => qc.invalidateQueries(),
  });
}

/**
 * The terminal step's check with the server (docs/product.md §5: an IMEI already registered is refused):
 * the fields already in use, with their messages, so the step stops there and not at the end.
 */
export async function terminalInUse(device: {
  car_device_id?: unknown;
  car_data_id?: unknown;
}): Promise<Record<string, string>> {
  const taken = async (check_item: 'car_device_id' | 'car_data_id') =>
    (await callApi(deviceExistCheck, { check_item, check_value: String(device[check_item] ?? '') })).isExist;
  const [deviceId, imei] = await Promise.all([taken('car_device_id'), taken('car_data_id')]);
  return {
    ...(deviceId ? { car_device_id: deviceMessages.deviceIdInUse } : {}),
    ...(imei ? { car_data_id: deviceMessages.imeiInUse } : {}),
  };
}
