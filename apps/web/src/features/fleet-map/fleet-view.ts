import { fleetStateOf, type FleetCar, type FleetState, type TelemetryState } from '@fleet/contract';

/** A vehicle as the map and the list show it: its newest state, judged once. */
export interface FleetItem {
  car: FleetCar;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  seen: string | null;
  state: FleetState;
}

/** The pushed state if it is at least as new as the fetched one (lib/live-feed's rule). */
export const newest = (fetched: TelemetryState | null, pushed: TelemetryState | undefined) =>
  pushed && (!fetched || pushed.last_seen_at >= fetched.last_seen_at) ? pushed : fetched;

export function toItems(
  cars: readonly FleetCar[],
  pushed: Readonly<Record<string, TelemetryState>>,
  now: Date,
): FleetItem[] {
  return cars.map((car) => {
    const s = newest(car.state, car.car_data_id ? pushed[car.car_data_id] : undefined);
    return {
      car,
      lat: s?.lat ?? null,
      lng: s?.lng ?? null,
      speed: s?.speed ?? null,
      seen: s?.last_seen_at ?? null,
      state: fleetStateOf(s, car.areas, now),
    };
  });
}

export interface FleetFilter {
  text: string;
  states: readonly FleetState[];
}

/** Vehicles with a position matching the filter; the list and the map show exactly these. */
export function filterItems(items: readonly FleetItem[], f: FleetFilter): FleetItem[] {
  const text = f.text.trim().toLowerCase();
  const states = new Set(f.states);
  return items.filter(
    (i) =>
      i.lat !== null &&
      i.lng !== null &&
      (states.size === 0 || states.has(i.state)) &&
      (!text || [i.car.car_number, i.car.car_id, i.car.user_name ?? ''].some((v) => v.toLowerCase().includes(text))),
  );
}
