import { carUserDeviceAdd, type CarUserDeviceAddInput } from '@fleet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** The wizard's one call: customer, terminal and vehicle in one server transaction. It touches three domains, so every cached query is refreshed. */
export function useRegisterAll() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (v: CarUserDeviceAddInput) => callApi(carUserDeviceAdd, v), onSuccess: () => qc.invalidateQueries() });
}
