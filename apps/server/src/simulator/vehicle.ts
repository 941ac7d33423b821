import type { DeviceRecordInput, ErrorType } from '@fleet/contract';
import { Route, cityPath, type LatLng } from './geo.js';
import type { Place } from './places.js';
import type { Random } from './random.js';

/** Reporting rhythm and behaviour of one simulated vehicle (seconds unless named otherwise). */
export interface VehicleOptions {
  gpsInterval: number;
  parkedGpsInterval: number;
  batteryInterval: number;
  sensorInterval: number;
  obd2Interval: number;
  /** How long a vehicle stays parked between trips. */
  parkSeconds: readonly [number, number];
  /** Chance per second that a sensor, OBD2 or GPS fault starts. */
  faultChance: number;
}

export const defaultVehicleOptions: VehicleOptions = {
  gpsInterval: 5,
  parkedGpsInterval: 60,
  batteryInterval: 60,
  sensorInterval: 30,
  obd2Interval: 30,
  parkSeconds: [60, 900],
  faultChance: 1 / 20_000,
};

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const faultDetails: Record<ErrorType, string> = {
  engine: 'エンジン始動失敗',
  gps: 'GPS測位不可',
  obd2: 'OBD2応答なし',
  sensor: 'センサー値取得失敗',
};

/**
 * A car in the city: parked (engine off) or driving a street-like route to
 * another real place at city speeds with stops at signals. It produces the
 * records its terminal would: GPS, engine, battery, sensor, OBD2 and errors.
 * Everything random comes from the injected source, so a run can be replayed.
 */
export class SimVehicle {
  engineLine: 'connected' | 'disconnected' = 'connected';
  position: LatLng;
  heading = 0;
  speed = 0;
  mode: 'parked' | 'driving' = 'parked';
  trips = 0;

  private route: Route | null = null;
  private travelled = 0;
  private cruise = 0;
  private signalWait = 0;
  private parkLeft: number;
  private battery: number;
  private coolant = 25;
  private fuel: number;
  private faults = new Map<ErrorType, number>();
  private since = { gps: 0, battery: 0, sensor: 0, obd2: 0 };

  constructor(
    private readonly places: readonly Place[],
    private readonly random: Random,
    private readonly opts: VehicleOptions = defaultVehicleOptions,
  ) {
    const home = random.pick(places);
    this.position = { lat: home.lat + random.between(-0.002, 0.002), lng: home.lng + random.between(-0.002, 0.002) };
    this.battery = random.between(70, 98);
    this.fuel = random.between(35, 95);
    // Half the fleet sets off at once, so a fresh console already shows traffic.
    this.parkLeft = random.chance(0.5) ? 0 : random.between(opts.parkSeconds[0], opts.parkSeconds[1]);
  }

  /** What a terminal reports when it powers up. */
  boot(now: number): DeviceRecordInput[] {
    const time = new Date(now).toISOString();
    return [
      { type: 'connection', time, state: 'connected' },
      { type: 'engine', time, running: 'off', engine_line: this.engineLine },
      this.gps(time),
      this.batteryRecord(time),
    ];
  }

  /** Engine start permission from a command: 0 permit, 1 prohibit. A running engine keeps running. */
  setEngineLine(cmd: number) {
    this.engineLine = cmd === 0 ? 'connected' : 'disconnected';
  }

  /** Advances one second ending at `now` (ms). */
  step(now: number): DeviceRecordInput[] {
    const time = new Date(now).toISOString();
    const out: DeviceRecordInput[] = [];
    this.tickFaults(time, out);
    if (this.mode === 'parked') this.park(time, out);
    else this.drive(time, out);
    this.report(time, out);
    return out;
  }

  private tickFaults(time: string, out: DeviceRecordInput[]) {
    for (const [type, left] of this.faults) {
      if (left > 1) this.faults.set(type, left - 1);
      else {
        this.faults.delete(type);
        out.push({ type: 'error', time, error_type: type, status_code: 0, detail: '' });
      }
    }
    if (this.random.chance(this.opts.faultChance)) {
      const type = this.random.pick(['sensor', 'obd2', 'gps'] as const);
      if (!this.faults.has(type)) {
        this.faults.set(type, this.random.int(60, 300));
        out.push({
          type: 'error',
          time,
          error_type: type,
          status_code: this.random.pick([1000, 1002]),
          detail: faultDetails[type],
        });
      }
    }
  }

  private park(time: string, out: DeviceRecordInput[]) {
    this.battery = Math.max(5, this.battery - 0.0003);
    this.coolant = Math.max(20, this.coolant - 0.02);
    this.speed = 0;
    if (--this.parkLeft > 0) return;
    if (this.engineLine === 'disconnected') {
      // Start prohibited: the immobiliser holds; the driver tries again later.
      this.parkLeft = this.random.between(60, 180);
      return;
    }
    if (this.random.chance(0.03)) {
      this.faults.set('engine', 20);
      out.push({ type: 'error', time, error_type: 'engine', status_code: 1001, detail: faultDetails.engine });
      this.parkLeft = 30;
      return;
    }
    const here = this.position;
    const others = this.places.filter((p) => Math.abs(p.lat - here.lat) + Math.abs(p.lng - here.lng) > 0.01);
    const dest = this.random.pick(others.length ? others : this.places);
    this.route = new Route(cityPath(here, dest, () => this.random.next()));
    this.travelled = 0;
    this.cruise = this.random.between(25, 50);
    this.mode = 'driving';
    this.trips++;
    this.since.gps = this.opts.gpsInterval;
    out.push({ type: 'engine', time, running: 'on' });
  }

  private drive(time: string, out: DeviceRecordInput[]) {
    if (this.signalWait > 0) {
      this.signalWait--;
      this.speed = Math.max(0, this.speed - 12);
    } else {
      const target = this.cruise * this.random.between(0.8, 1.15);
      this.speed = Math.max(0, this.speed + Math.max(-8, Math.min(5, target - this.speed)));
      if (this.random.chance(1 / 90)) this.signalWait = this.random.int(15, 60);
    }
    this.travelled += this.speed / 3.6;
    const at = this.route!.at(this.travelled);
    this.position = { lat: at.lat, lng: at.lng };
    this.heading = at.heading;
    this.battery = Math.min(100, this.battery + 0.004);
    this.coolant = Math.min(90, this.coolant + 0.15);
    this.fuel = Math.max(3, this.fuel - this.speed * 0.00003);
    if (this.travelled < this.route!.length) return;
    this.mode = 'parked';
    this.speed = 0;
    this.route = null;
    this.parkLeft = this.random.between(this.opts.parkSeconds[0], this.opts.parkSeconds[1]);
    if (this.fuel < 12) this.fuel = this.random.between(85, 98);
    out.push({ type: 'engine', time, running: 'off' }, this.gps(time));
    this.since.gps = 0;
  }

  private report(time: string, out: DeviceRecordInput[]) {
    const s = this.since;
    s.gps++;
    s.battery++;
    s.sensor++;
    s.obd2++;
    const gpsEvery = this.mode === 'driving' ? this.opts.gpsInterval : this.opts.parkedGpsInterval;
    if (s.gps >= gpsEvery && !this.faults.has('gps')) {
      out.push(this.gps(time));
      s.gps = 0;
    }
    if (s.battery >= this.opts.batteryInterval) {
      out.push(this.batteryRecord(time));
      s.battery = 0;
    }
    const bump = this.mode === 'parked' && this.random.chance(1 / 5000);
    if ((s.sensor >= this.opts.sensorInterval || bump) && !this.faults.has('sensor')) {
      const vibration = bump
        ? this.random.between(2.5, 4)
        : this.mode === 'driving'
          ? 0.1 + (this.speed / 100) * this.random.between(0.5, 1.5)
          : this.random.between(0, 0.03);
      out.push({
        type: 'sensor',
        time,
        vibration: round(vibration, 2),
        readings: {
          temperature_c: round(this.random.between(18, 31), 1),
          humidity_pct: round(this.random.between(35, 70), 0),
        },
      });
      s.sensor = 0;
    }
    if (this.mode === 'driving' && s.obd2 >= this.opts.obd2Interval && !this.faults.has('obd2')) {
      out.push({
        type: 'obd2',
        time,
        pids: {
          rpm: Math.round(750 + this.speed * 38 + this.random.between(-60, 60)),
          vehicle_speed: Math.round(this.speed),
          coolant_temp: Math.round(this.coolant),
          fuel_level: round(this.fuel, 1),
          engine_load: Math.round(20 + this.speed * 0.6 + this.random.between(0, 10)),
          throttle_pos: Math.round(10 + this.speed * 0.4 + this.random.between(0, 8)),
        },
      });
      s.obd2 = 0;
    }
  }

  private gps(time: string): DeviceRecordInput {
    return {
      type: 'gps',
      time,
      lat: round(this.position.lat, 6),
      lng: round(this.position.lng, 6),
      speed: round(this.speed, 1),
      heading: Math.round(this.heading) % 360,
      satellites: this.random.int(6, 12),
      accuracy: round(this.random.between(3, 12), 1),
    };
  }

  private batteryRecord(time: string): DeviceRecordInput {
    const voltage = this.mode === 'driving' ? this.random.between(13.9, 14.3) : 11.9 + 0.009 * this.battery;
    return { type: 'battery', time, voltage: round(voltage, 2), percentage: round(this.battery, 1) };
  }
}
