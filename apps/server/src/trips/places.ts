import { NIGHT_HOURS_JST, PLACE_RADIUS_M } from '@fleet/contract';
import { haversine } from './detect.js';

/**
 * The places a vehicle frequents (car_places, docs/geocoding.md): its stops within PLACE_RADIUS_M of a place's
 * first stop are visits of that place; each place adds up the seconds stopped there within the range and, of
 * those, the seconds of the night (0:00-5:00 in Japan), where a vehicle on a lease usually sleeps.
 */

export interface StopSpan {
  start_at: Date;
  /** Null while still stopped: up to last_at. */
  end_at: Date | null;
  last_at?: Date;
  lat: number;
  lng: number;
}

export interface PlaceTotals {
  lat: number;
  lng: number;
  visits: number;
  total_s: number;
  night_s: number;
}

const HOUR_MS = 3_600_000;
const JST_MS = 9 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;

/** Milliseconds of [from, to) that fall between 0:00 and 5:00 in Japan. */
export function nightMs(from: number, to: number): number {
  if (to <= from) return 0;
  let total = 0;
  // Each JST day's night, from the day of `from` to the day of `to`.
  for (let day = Math.floor((from + JST_MS) / DAY_MS) * DAY_MS - JST_MS; day < to; day += DAY_MS) {
    const a = Math.max(from, day + NIGHT_HOURS_JST.from * HOUR_MS);
    const b = Math.min(to, day + NIGHT_HOURS_JST.to * HOUR_MS);
    if (b > a) total += b - a;
  }
  return total;
}

/** Stops of [from, to] grouped into places, most seconds first (ties: most visits). */
export function frequentPlaces(stops: readonly StopSpan[], from: Date, to: Date): PlaceTotals[] {
  const places: (PlaceTotals & { anchor: { lat: number; lng: number }; weight: number })[] = [];
  for (const s of stops) {
    const a = Math.max(s.start_at.getTime(), from.getTime());
    const b = Math.min((s.end_at ?? s.last_at ?? s.start_at).getTime(), to.getTime());
    if (b < a) continue;
    let place = places.find((p) => haversine(p.anchor.lat, p.anchor.lng, s.lat, s.lng) <= PLACE_RADIUS_M);
    if (!place) {
      place = { anchor: { lat: s.lat, lng: s.lng }, lat: 0, lng: 0, weight: 0, visits: 0, total_s: 0, night_s: 0 };
      places.push(place);
    }
    // The place's position: its stops' mean, weighted by time (a visit of a second still counts).
    const w = Math.max(1, (b - a) / 1000);
    place.lat = (place.lat * place.weight + s.lat * w) / (place.weight + w);
    place.lng = (place.lng * place.weight + s.lng * w) / (place.weight + w);
    place.weight += w;
    place.visits++;
    place.total_s += (b - a) / 1000;
    place.night_s += nightMs(a, b) / 1000;
  }
  return places
    .map((p) => ({
      lat: Math.round(p.lat * 1e6) / 1e6,
      lng: Math.round(p.lng * 1e6) / 1e6,
      visits: p.visits,
      total_s: Math.round(p.total_s),
      night_s: Math.round(p.night_s),
    }))
    .sort((x, y) => y.total_s - x.total_s || y.visits - x.visits);
}
