import type { DeviceRecordInput } from '@fleet/contract';
import type { AvlRecord, IoValue } from './teltonika-codec.js';

/**
 * An AVL record as the records of our own protocol (docs/device-protocol.md
 * §3.2), so it is stored exactly like a JSON batch. IO element ids are those
 * of the FMB/FMC/FMM families ("FMB AVL ID list"):
 *   239 ignition → engine.running, 179 DOUT1 (the immobiliser relay) → engine.engine_line,
 *   66 external voltage (mV) → battery.voltage, 240 movement, 21 GSM signal and the rest below → sensor.readings,
 *   31/32/36/37/41/48 OBD values → obd2.pids.
 * A record without a fix (no satellites and 0,0) logs no position.
 */
export const IO = {
  digitalInput1: 1,
  analogInput1: 9,
  totalOdometer: 16,
  gsmSignal: 21,
  externalVoltage: 66,
  batteryVoltage: 67,
  gnssStatus: 69,
  dallasTemperature1: 72,
  batteryLevel: 113,
  dout1: 179,
  dout2: 180,
  pdop: 181,
  hdop: 182,
  ignition: 239,
  movement: 240,
  unplug: 252,
} as const;

/** OBD elements: id → our pid name (the names docs/device-protocol.md recommends). */
const OBD: Record<number, [name: string, signedByte?: boolean]> = {
  31: ['engine_load'],
  32: ['coolant_temp', true],
  36: ['rpm'],
  37: ['vehicle_speed'],
  41: ['throttle_pos'],
  48: ['fuel_level'],
};

/** Readings kept as they are (name, scale). */
const READINGS: [id: number, name: string, scale: number][] = [
  [IO.movement, 'movement', 1],
  [IO.gsmSignal, 'gsm_signal', 1],
  [IO.batteryVoltage, 'internal_battery_v', 0.001],
  [IO.batteryLevel, 'internal_battery_pct', 1],
  [IO.digitalInput1, 'din1', 1],
  [IO.analogInput1, 'ain1_v', 0.001],
  [IO.dout2, 'dout2', 1],
  [IO.totalOdometer, 'odometer_m', 1],
  [IO.gnssStatus, 'gnss_status', 1],
  [IO.pdop, 'pdop', 0.1],
  [IO.hdop, 'hdop', 0.1],
  [IO.unplug, 'unplugged', 1],
];

const num = (v: IoValue | undefined): number | undefined =>
  v === undefined || Buffer.isBuffer(v) ? undefined : typeof v === 'bigint' ? Number(v) : v;
const round = (v: number) => Math.round(v * 1000) / 1000;

export function avlToRecords(avl: AvlRecord): DeviceRecordInput[] {
  const time = avl.time.toISOString();
  const out: DeviceRecordInput[] = [];
  const io = (id: number) => num(avl.io.get(id));
  if (avl.satellites > 0 || avl.lat !== 0 || avl.lng !== 0) {
    out.push({
      type: 'gps',
      time,
      lat: avl.lat,
      lng: avl.lng,
      speed: avl.speed,
      heading: avl.angle % 360,
      satellites: avl.satellites,
    });
  }
  const ignition = io(IO.ignition);
  const dout1 = io(IO.dout1);
  if (ignition !== undefined || dout1 !== undefined) {
    out.push({
      type: 'engine',
      time,
      running: ignition === undefined ? null : ignition ? 'on' : 'off',
      // DOUT1 drives the immobiliser relay: on = start prohibited (禁止中).
      engine_line: dout1 === undefined ? null : dout1 ? 'disconnected' : 'connected',
    });
  }
  const external = io(IO.externalVoltage);
  if (external !== undefined) out.push({ type: 'battery', time, voltage: round(external / 1000) });
  const readings: Record<string, number> = {};
  for (const [id, name, scale] of READINGS) {
    const v = io(id);
    if (v !== undefined) readings[name] = round(v * scale);
  }
  const temperature = io(IO.dallasTemperature1);
  if (temperature !== undefined) readings.temperature_c = round((temperature | 0) / 10);
  if (avl.eventId) readings.event_io = avl.eventId;
  if (Object.keys(readings).length) out.push({ type: 'sensor', time, readings });
  const pids: Record<string, number> = {};
  for (const [id, [name, signed]] of Object.entries(OBD)) {
    const v = io(Number(id));
    if (v !== undefined) pids[name] = signed && v > 127 ? v - 256 : v;
  }
  if (Object.keys(pids).length) out.push({ type: 'obd2', time, pids });
  return out;
}
