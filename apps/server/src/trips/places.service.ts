import type { CallResult, carPlaces } from '@fleet/contract';
import type { Access } from '../access/access.js';
import type { Db } from '../db/database.js';
import { addressesAt } from '../geocode/addresses.js';
import { frequentPlaces } from './places.js';
import { carTripsFor } from './trips.service.js';

/**
 * car_places: the stops car_trips gives the caller over the range (the same tenancy: only the time the
 * terminal served the caller's company), grouped into places with their addresses.
 */
export async function carPlacesFor(
  db: Db,
  access: Access,
  q: { car_data_id: string; from: string; to: string },
): Promise<CallResult<typeof carPlaces>> {
  const { stops } = await carTripsFor(db, access, q);
  const places = frequentPlaces(
    stops.map((s) => ({
      start_at: new Date(s.start_at),
      end_at: s.end_at === null ? null : new Date(s.end_at),
      last_at: new Date(new Date(s.start_at).getTime() + s.duration_s * 1000),
      lat: s.lat,
      lng: s.lng,
    })),
    new Date(q.from),
    new Date(q.to),
  );
  const addressOf = await addressesAt(db, places, { queue: true });
  return { places: places.map((p) => ({ ...p, address: addressOf(p.lat, p.lng) })) };
}
