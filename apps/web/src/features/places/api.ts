import { carGetLatestState, carPlaces, jstDayOf, shiftJstDay } from '@fleet/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** Query keys of addresses and frequent places (docs/geocoding.md). */
export const placeKeys = {
  all: ['places'] as const,
  address: (carDataId: string, lat: number, lng: number) => ['places', 'address', carDataId, lat, lng] as const,
  frequent: (carDataId: string, from: string, to: string) => ['places', 'frequent', carDataId, from, to] as const,
};

/** An address not looked up yet is asked again after this (the server's job fills it meanwhile). */
const ADDRESS_RETRY_MS = 20_000;
/** How far back よく停まる場所 looks: the last 30 days in Japan. */
export const PLACES_DAYS = 30;

/** The address of the vehicle's latest position; asked again when the position moves. */
export const useLatestAddress = (carDataId: string | null, lat: number | null, lng: number | null) =>
  useQuery({
    queryKey: placeKeys.address(carDataId ?? '', lat ?? 0, lng ?? 0),
    queryFn: ({ signal }) => callApi(carGetLatestState, { car_data_id: carDataId! }, { signal }),
    enabled: !!carDataId && lat !== null && lng !== null,
    select: (r) => r.address ?? null,
    refetchInterval: (q) => (q.state.data?.address ? false : ADDRESS_RETRY_MS),
    staleTime: 60_000,
  });

/** The places the vehicle stopped at over the last PLACES_DAYS days, most time first. */
export function useFrequentPlaces(carDataId: string | null) {
  const to = jstDayOf(new Date());
  const from = shiftJstDay(to, -(PLACES_DAYS - 1));
  return useQuery({
    queryKey: placeKeys.frequent(carDataId ?? '', from, to),
    queryFn: ({ signal }) => callApi(carPlaces, { car_data_id: carDataId!, from, to }, { signal }),
    enabled: !!carDataId,
    staleTime: 5 * 60_000,
  });
}
