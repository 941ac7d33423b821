import { carMapList } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const fleetMapKeys = {
  all: ['fleet-map'] as const,
  list: (companyId: string | null) => ['fleet-map', 'list', companyId] as const,
};

/** Every vehicle of the caller's scope (one company for the super admin when chosen); live updates merge over it. */
export const fleetCarsQuery = (companyId: string | null) =>
  queryOptions({
    queryKey: fleetMapKeys.list(companyId),
    queryFn: ({ signal }) => callApi(carMapList, companyId ? { company_id: companyId } : {}, { signal }),
    select: (r) => r.list,
    staleTime: 60_000,
  });
