import {
  carZones,
  carZonesUpdate,
  zoneAdd,
  zoneCarsAdd,
  zoneDelete,
  zoneList,
  zoneUpdate,
  type ZoneInfo,
} from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

export const zoneKeys = {
  all: ['zones'] as const,
  list: (companyId: string) => ['zones', 'list', companyId] as const,
  car: (carId: string) => ['zones', 'car', carId] as const,
};

export const zoneListQuery = (company_id?: string | null) =>
  queryOptions({
    queryKey: zoneKeys.list(company_id ?? ''),
    queryFn: ({ signal }) => callApi(zoneList, company_id ? { company_id } : {}, { signal }),
  });
export const carZonesQuery = (car_id: string) =>
  queryOptions({
    queryKey: zoneKeys.car(car_id),
    queryFn: ({ signal }) => callApi(carZones, { car_id }, { signal }),
  });

const domain = zoneKeys.all[0];
export const useSaveZone = () =>
  useDomainMutation(domain, async ({ zone_id, info }: { zone_id?: string; info: ZoneInfo }): Promise<void> => {
    if (zone_id) await callApi(zoneUpdate, { zone_id, info });
    else await callApi(zoneAdd, { info });
  });
export const useDeleteZone = () => useDomainMutation(domain, (zone_id: string) => callApi(zoneDelete, { zone_id }));
export const useAssignZones = () =>
  useDomainMutation(domain, (v: { car_id: string; zone_ids: string[] }) => callApi(carZonesUpdate, v));
/** The vehicle list's bulk action: the zones join each picked vehicle's own zones. */
export const useAddZonesToCars = () =>
  useDomainMutation(domain, (v: { zone_ids: string[]; car_ids: string[] }) => callApi(zoneCarsAdd, v));
