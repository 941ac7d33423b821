import { fleetStateOf, type FleetCar, type FleetState, type TelemetryState } from '@fleet/contract';

/** A vehicle as the map and the list show it: its newest state, judged once. */
export interface FleetItem {
  car: FleetCar;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  seen: string | null;
  state: FleetState;
  /** The state object judged (the fetched or the pushed one): unchanged object, unchanged item. */
  source: TelemetryState | null;
}

/** The pushed state if it is at least as new as the fetched one (lib/live-feed's rule). */
export const newest = (fetched: TelemetryState | null, pushed: TelemetryState | undefined) =>
  pushed && (!fetched || pushed.last_seen_at >= fetched.last_seen_at) ? pushed : fetched;

const judge = (car: FleetCar, s: TelemetryState | null, now: Date): FleetItem => ({
  car,
  lat: s?.lat ?? null,
  lng: s?.lng ?? null,
  speed: s?.speed ?? null,
  seen: s?.last_seen_at ?? null,
  state: fleetStateOf(s, car.areas, now),
  source: s,
});

export function toItems(
  cars: readonly FleetCar[],
  pushed: Readonly<Record<string, TelemetryState>>,
  now: Date,
): FleetItem[] {
  return judgeItems(null, cars, pushed, now).items;
}

/** The vehicles judged at one moment, kept to judge the next push against. */
export interface JudgedFleet {
  cars: readonly FleetCar[];
  now: number;
  items: FleetItem[];
  /** How many vehicles this round judged (the others kept their item). */
  judged: number;
}

/**
 * toItems for a live stream: only the vehicles whose newest state is another object than last time
 * are judged again; the others keep their item. New vehicles or a new minute judge everything. When
 * nothing changed the previous round comes back as it was (same `items` array), so what is derived
 * from it is not recomputed.
 */
export function judgeItems(
  prev: JudgedFleet | null,
  cars: readonly FleetCar[],
  pushed: Readonly<Record<string, TelemetryState>>,
  now: Date,
): JudgedFleet {
  const old = prev && prev.cars === cars && prev.now === now.getTime() ? prev.items : null;
  let judged = 0;
  const items = cars.map((car, i) => {
    const s = newest(car.state, car.car_data_id ? pushed[car.car_data_id] : undefined);
    const kept = old?.[i];
    if (kept && kept.source === s) return kept;
    judged += 1;
    return judge(car, s, now);
  });
  if (old && judged === 0) return prev!;
  return { cars, now: now.getTime(), items, judged };
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
