import { z } from 'zod';
import { defineCall } from './call.js';
import { groupFilter } from './groups.js';
import { idField } from './fields.js';
import { connectionLabel, engineLineLabel } from './enums.js';
import { isOutsideAvailableArea, type Area } from './rules/area.js';
import { TelemetryState } from './telemetry.js';

/**
 * The fleet map (docs/console.md, "Extras beyond docs/product.md §2"): every vehicle the caller may see at its latest position, coloured by
 * one state judged here, once, for the server's tests and the console alike.
 */
export const fleetStates = ['offline', 'outside', 'prohibited', 'moving', 'stopped'] as const;
export type FleetState = (typeof fleetStates)[number];
export const fleetStateLabels: Record<FleetState, string> = {
  moving: '走行中',
  stopped: '停止中',
  prohibited: '禁止中',
  offline: '通信途絶',
  outside: 'エリア外',
};
/**
 * Marker colours, also the list's badges: dark enough that the white label of the fleet list's badge reads at 4.5:1 or better (WCAG AA), and the
 * same shades the console's filled badges use (apps/web/src/app/accessibility.css).
 */
export const fleetStateColors: Record<FleetState, string> = {
  moving: '#247635',
  stopped: '#1971c2',
  prohibited: '#c92a2a',
  offline: '#5c636a',
  outside: '#ad5700',
};
/** A terminal not heard from for this long counts as 通信途絶 even without a disconnect record. */
export const FLEET_OFFLINE_MINUTES = 30;

type StateInput = Pick<
  TelemetryState,
  'lat' | 'lng' | 'engine_running' | 'engine_line' | 'connection' | 'last_seen_at'
>;

/**
 * One state per vehicle, the first that holds: 通信途絶 (disconnected, or silent for
 * FLEET_OFFLINE_MINUTES: its position may be stale), エリア外 (outside its available areas,
 * docs/product.md §4), 禁止中 (engine start prohibited), 走行中 (engine running), else 停止中.
 * No state at all is 通信途絶.
 */
export function fleetStateOf(state: StateInput | null | undefined, areas: readonly Area[], now: Date): FleetState {
  if (!state) return 'offline';
  const silentMs = now.getTime() - new Date(state.last_seen_at).getTime();
  if (connectionLabel(state.connection) === '切断中' || silentMs > FLEET_OFFLINE_MINUTES * 60_000) return 'offline';
  if (
    areas.length > 0 &&
    state.lat !== null &&
    state.lng !== null &&
    isOutsideAvailableArea({ lat: state.lat, lng: state.lng }, [...areas])
  )
    return 'outside';
  if (engineLineLabel(state.engine_line) === '禁止中') return 'prohibited';
  if (state.engine_running === 'on') return 'moving';
  return 'stopped';
}

const AreaBounds = z.object({ lat_min: z.number(), lat_max: z.number(), lng_min: z.number(), lng_max: z.number() });

export const FleetCar = z.object({
  car_id: z.string(),
  car_number: z.string(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  user_name: z.string().nullable(),
  car_data_id: z.string().nullable(),
  /** The terminal's latest state within the caller's scope; null when none may be shown. */
  state: TelemetryState.nullable(),
  /** The available region (available_data and the available areas) fleetStateOf judges against. */
  areas: z.array(AreaBounds),
  /** The latest position's address (docs/geocoding.md); null until looked up. */
  address: z.string().nullable().optional(),
});
export type FleetCar = z.infer<typeof FleetCar>;

/** Live vehicles of the caller's scope; the super admin may narrow it to one company. */
export const carMapList = defineCall(
  '/api/car_map_list',
  z.object({ company_id: idField().nullish(), ...groupFilter }),
  z.object({ list: z.array(FleetCar) }),
);
