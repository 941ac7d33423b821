import { carGetGpsLog } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** How far back the followed vehicle's trail reaches. */
export const TRAIL_MS = 3600_000;

/**
 * The followed vehicle's positions of the hour before following began (thinned by the server); what the
 * live feed brings after that is added on the screen.
 */
export const followTrailQuery = (carDataId: string, since: number) =>
  queryOptions({
    queryKey: ['fleet-map', 'trail', carDataId, since] as const,
    queryFn: ({ signal }) =>
      callApi(
        carGetGpsLog,
        {
          car_data_id: carDataId,
          from: new Date(since - TRAIL_MS).toISOString(),
          to: new Date(since).toISOString(),
          max_points: 1000,
        },
        { signal },
      ),
    staleTime: Infinity,
  });
