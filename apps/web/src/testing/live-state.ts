import type { LiveState } from '@fleet/contract';

/** When the fixture's states were reported: a minute before the `now` the fleet-map tests judge at. */
export const REPORTED_AT = '2026-11-25T02:59:00.000Z';

/**
 * One terminal's newest state as the live feed pushes it (a LiveState, so also a TelemetryState): connected,
 * engine off, at `lat` in Tokyo, reported at REPORTED_AT. The unit tests of the live feed and of the fleet map
 * build their states from this one fixture, overriding what they test.
 */
export const liveState = (carDataId: string, lat: number, o: Partial<LiveState> = {}): LiveState => ({
  car_data_id: carDataId,
  car_id: `C${carDataId}`,
  recorded_at: REPORTED_AT,
  lat,
  lng: 139.7,
  speed: 0,
  heading: null,
  engine_running: 'off',
  engine_line: 'connected',
  connection: 'connected',
  device_state: 0,
  battery_voltage: null,
  battery_percentage: null,
  last_seen_at: REPORTED_AT,
  ...o,
});
