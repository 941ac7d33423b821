import { carAdd, carGetNewid, carUpdate, type CarFormInput } from '@fleet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { newIdQuery } from '../../lib/use-id-generator';
import { carKeys } from './api';

/** A fresh vehicle id from the server (car_get_newid); never cached, each add screen asks anew. */
export const newCarIdQuery = () =>
  newIdQuery([...carKeys.all, 'new-id'], (signal) => callApi(carGetNewid, {}, { signal }).then((r) => r.newid));
export const useNewCarId = () => useQuery(newCarIdQuery());

/**
 * Saving a vehicle also changes which customers and terminals are free and what
 * their screens show, so every cached query is refreshed, not only the vehicle's.
 */
const useCarSave = (fn: (info: CarFormInput) => Promise<unknown>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries() });
};
export const useAddCar = () => useCarSave((info) => callApi(carAdd, { info }));
export const useUpdateCar = () => useCarSave((info) => callApi(carUpdate, { info }));
