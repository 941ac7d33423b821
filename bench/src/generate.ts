import { hashDeviceSecret } from '@fleet/server/device-secret';
import { hashPassword } from '@fleet/server/password';
import { createLogPartition } from '@fleet/server/partitions';
import type { BenchDb } from './db.js';

/**
 * Fills a migrated database with a fleet: companies, then per vehicle a
 * customer, a terminal and a car, accounts, the terminals' latest state, and
 * telemetry (trips with GPS every 10 s while driving, engine and connection
 * changes, battery every 15 min), day by day so rows lie in time order as
 * ingest leaves them. Plus one "busy" vehicle: a day of 1-second GPS and a
 * long battery log. Rows go in as one INSERT ... SELECT FROM unnest(arrays)
 * per chunk: a handful of parameters whatever the chunk size, on PGlite and
 * PostgreSQL alike.
 */
export interface FleetSize {
  vehicles: number;
  companies: number;
  /** Vehicles with telemetry, and how many days of it. */
  telemetryVehicles: number;
  days: number;
  /** Rows of the busy vehicle's battery log (the log table and CSV export benches). */
  busyLogRows: number;
  /** 1-second GPS points of the busy vehicle, ending now. */
  busyRoutePoints: number;
}

export const FULL: FleetSize = {
  vehicles: 100_000,
  companies: 50,
  telemetryVehicles: 1000,
  days: 30,
  busyLogRows: 1_000_000,
  busyRoutePoints: 86_400,
};
export const QUICK: FleetSize = {
  vehicles: 5000,
  companies: 50,
  telemetryVehicles: 20,
  days: 1,
  busyLogRows: 100_000,
  busyRoutePoints: 86_400,
};

export const BENCH_ADMIN = 'bench-admin';
export const BENCH_PASSWORD = 'bench-password-2026';
export const TERMINAL_SECRET = 'bench-terminal-secret';

export const pad = (n: number, width: number) => String(n).padStart(width, '0');
const hex = (n: number) => (n & 255).toString(16).padStart(2, '0');
export const carId = (i: number) => `C${pad(i, 6)}`;
export const userId = (i: number) => `U${pad(i, 7)}`;
export const deviceId = (i: number) => `D${pad(i, 7)}`;
export const imei = (i: number) => `35${pad(i, 13)}`;
export const companyId = (i: number, companies: number) => `CO${pad((i % companies) + 1, 3)}`;

export interface Fleet {
  size: FleetSize;
  /** The busy vehicle: car and terminal ids. */
  busy: { car_id: string; car_data_id: string; car_device_id: string };
  /** When the generated telemetry ends. */
  now: Date;
  rows: Record<string, number>;
  seconds: number;
}

/** Deterministic PRNG (mulberry32), so every run builds the same fleet. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const surnames = [
  '佐藤',
  '鈴木',
  '高橋',
  '田中',
  '伊藤',
  '渡辺',
  '山本',
  '中村',
  '小林',
  '加藤',
  '吉田',
  '山田',
  '佐々木',
  '山口',
  '松本',
  '井上',
  '木村',
  '林',
  '斎藤',
  '清水',
  '山崎',
  '森',
  '池田',
  '橋本',
  '阿部',
  '石川',
  '山下',
  '中島',
  '石井',
  '小川',
  '前田',
  '岡田',
  '長谷川',
  '藤田',
  '後藤',
  '近藤',
  '村上',
  '遠藤',
  '青木',
  '坂本',
];
const givenNames = [
  '翔太',
  '蓮',
  '大翔',
  '陽菜',
  '結衣',
  '美咲',
  '健太',
  '拓海',
  '颯太',
  '葵',
  '花子',
  '太郎',
  '一郎',
  '直樹',
  '真由美',
  '裕子',
  '誠',
  '剛',
  '愛',
  '優子',
  '大輔',
  '修',
  '明美',
  '恵',
  '和也',
  '亮',
  '由美',
  '聡',
  '智子',
  '浩二',
];
const regions = ['品川', '練馬', '足立', '多摩', '横浜', '川崎', '湘南', '相模', '大宮', '所沢', '千葉', '習志野'];
const kana = [
  'あ',
  'い',
  'う',
  'え',
  'か',
  'き',
  'く',
  'け',
  'こ',
  'さ',
  'す',
  'せ',
  'そ',
  'た',
  'ち',
  'つ',
  'て',
  'と',
  'な',
  'に',
];
const carTypes = [
  'プリウス',
  'アクア',
  'ヴォクシー',
  'ノア',
  'ハイエース',
  'N-BOX',
  'フィット',
  'セレナ',
  'ノート',
  'デミオ',
  'タント',
  'ワゴンR',
  'ジムニー',
  'カローラ',
  'フリード',
];
const deviceTypes = ['FT-100', 'FT-200', 'FT-200S', 'GX-5', 'GX-7'];
const dealers = [
  'トヨタモビリティ東京',
  'ネッツトヨタ横浜',
  'ホンダカーズ千葉',
  '日産プリンス埼玉',
  'マツダ東京',
  'スズキ自販神奈川',
  'ダイハツ東京販売',
  'オートバックス',
  'ガリバー',
  'ネクステージ',
];
const branches = [
  '新宿',
  '渋谷',
  '池袋',
  '品川',
  '上野',
  '立川',
  '町田',
  '八王子',
  '横浜',
  '川崎',
  '大宮',
  '船橋',
  '柏',
  '藤沢',
  '相模原',
];

type Rows = Record<string, unknown[]>;

/** INSERT ... SELECT FROM unnest(...) of column arrays; `types` gives each column's SQL array type. */
export async function insertColumns(bdb: BenchDb, table: string, types: Record<string, string>, rows: Rows) {
  const names = Object.keys(types);
  const args = names.map((n, i) => `$${i + 1}::${types[n]}[]`).join(', ');
  await bdb.raw(
    `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${args})`,
    names.map((n) => rows[n]),
  );
}

/** Collects rows column-wise and inserts them a chunk at a time. */
export class ColumnWriter {
  private rows: Rows = {};
  private count = 0;
  total = 0;
  constructor(
    private bdb: BenchDb,
    private table: string,
    private types: Record<string, string>,
    private chunk = 20_000,
  ) {
    this.reset();
  }
  private reset() {
    this.rows = Object.fromEntries(Object.keys(this.types).map((k) => [k, []]));
    this.count = 0;
  }
  async push(row: Record<string, unknown>) {
    for (const k in this.types) this.rows[k]!.push(row[k] ?? null);
    this.count++;
    if (this.count >= this.chunk) await this.flush();
  }
  async flush() {
    if (!this.count) return;
    await insertColumns(this.bdb, this.table, this.types, this.rows);
    this.total += this.count;
    this.reset();
  }
}

const iso = (t: number) => new Date(t).toISOString();

async function masterData(bdb: BenchDb, size: FleetSize, log: (s: string) => void) {
  const r = rng(1);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const companies = Array.from({ length: size.companies }, (_, i) => companyId(i, size.companies));
  await insertColumns(
    bdb,
    'companies',
    { company_id: 'text', company_name: 'text', name: 'text', phone: 'text' },
    {
      company_id: companies,
      company_name: companies.map((_, i) => `株式会社${pick(regions)}モータース${i + 1}`),
      name: companies.map(() => `${pick(surnames)} ${pick(givenNames)}`),
      phone: companies.map((_, i) => `03-1234-${pad(i, 4)}`),
    },
  );

  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const deviceHash = hashDeviceSecret(TERMINAL_SECRET);
  const users = new ColumnWriter(bdb, 'car_users', {
    user_id: 'text',
    company_id: 'text',
    first_name: 'text',
    name: 'text',
    work_phone: 'text',
    merchant: 'text',
    payment_log: 'smallint',
    state: 'smallint',
    is_delete: 'boolean',
  });
  const devices = new ColumnWriter(bdb, 'devices', {
    car_device_id: 'text',
    password_hash: 'text',
    ipaddr: 'text',
    macaddr: 'text',
    car_type: 'text',
    car_data_id: 'text',
    is_delete: 'boolean',
  });
  const cars = new ColumnWriter(bdb, 'cars', {
    car_id: 'text',
    company_id: 'text',
    car_number: 'text',
    car_type: 'text',
    car_vin: 'text',
    user_id: 'text',
    car_device_id: 'text',
    car_data_id: 'text',
    car_status: 'smallint',
    is_delete: 'boolean',
  });
  const accounts = new ColumnWriter(bdb, 'accounts', {
    account_id: 'text',
    name: 'text',
    email: 'text',
    role: 'smallint',
    company_id: 'text',
    password_hash: 'text',
    is_delete: 'boolean',
  });
  const states = new ColumnWriter(bdb, 'device_latest_state', {
    car_data_id: 'text',
    recorded_at: 'timestamptz',
    lat: 'float8',
    lng: 'float8',
    speed: 'real',
    heading: 'real',
    engine_running: 'text',
    connection: 'text',
    device_state: 'int',
    battery_voltage: 'real',
    battery_percentage: 'real',
    last_seen_at: 'timestamptz',
    position_at: 'timestamptz',
    engine_running_at: 'timestamptz',
    connection_at: 'timestamptz',
    device_state_at: 'timestamptz',
    battery_at: 'timestamptz',
  });
  await accounts.push({
    account_id: BENCH_ADMIN,
    name: 'ベンチ 管理者',
    email: 'bench-admin@example.jp',
    role: 0,
    company_id: null,
    password_hash: passwordHash,
    is_delete: false,
  });
  const now = Date.now();
  for (let i = 1; i <= size.vehicles; i++) {
    const company = companyId(i, size.companies);
    const deleted = r() < 0.01;
    const name = pick(surnames);
    await users.push({
      user_id: userId(i),
      company_id: company,
      first_name: name,
      name: pick(givenNames),
      work_phone: `090-${pad(i % 10000, 4)}-${pad((i * 7) % 10000, 4)}`,
      merchant: `${pick(dealers)} ${pick(branches)}店`,
      payment_log: r() < 0.8 ? 0 : Math.floor(r() * 4),
      state: Math.floor(r() * 4),
      is_delete: deleted,
    });
    await devices.push({
      car_device_id: deviceId(i),
      password_hash: deviceHash,
      ipaddr: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      macaddr: `02:00:${hex(i >> 16)}:${hex(i >> 8)}:${hex(i)}:01`,
      car_type: pick(deviceTypes),
      car_data_id: imei(i),
      is_delete: false,
    });
    await cars.push({
      car_id: carId(i),
      company_id: company,
      car_number: `${pick(regions)} ${300 + Math.floor(r() * 300)} ${pick(kana)} ${pad(Math.floor(r() * 100), 2)}-${pad(Math.floor(r() * 100), 2)}`,
      car_type: pick(carTypes),
      car_vin: `JT${pad(i, 15)}`,
      user_id: userId(i),
      car_device_id: deviceId(i),
      car_data_id: imei(i),
      car_status: Math.floor(r() * 4),
      is_delete: deleted,
    });
    await accounts.push({
      account_id: `A${pad(i, 7)}`,
      name: `${pick(surnames)} ${pick(givenNames)}`,
      email: `user${i}@example.jp`,
      role: r() < 0.05 ? 0 : r() < 0.3 ? 1 : 2,
      company_id: company,
      password_hash: passwordHash,
      is_delete: r() < 0.01,
    });
    const seen = now - Math.floor(r() * 86_400_000);
    await states.push({
      car_data_id: imei(i),
      recorded_at: iso(seen),
      lat: 35.5 + r() * 0.3,
      lng: 139.5 + r() * 0.4,
      speed: Math.floor(r() * 60),
      heading: Math.floor(r() * 360),
      engine_running: r() < 0.3 ? 'on' : 'off',
      connection: 'connected',
      device_state: r() < 0.9 ? 0 : 1000,
      battery_voltage: 12 + r(),
      battery_percentage: 50 + r() * 50,
      last_seen_at: iso(seen),
      position_at: iso(seen),
      engine_running_at: iso(seen),
      connection_at: iso(seen),
      device_state_at: iso(seen),
      battery_at: iso(seen),
    });
    if (i % 20_000 === 0) log(`  master data: ${i.toLocaleString('en-US')} vehicles`);
  }
  for (const w of [users, devices, cars, accounts, states]) await w.flush();
}

const gpsTypes = {
  car_data_id: 'text',
  recorded_at: 'timestamptz',
  lat: 'float8',
  lng: 'float8',
  speed: 'real',
  heading: 'real',
  satellites: 'smallint',
  accuracy: 'real',
};

/** A vehicle driving: heading drifts, speed varies, position advances by speed × step. */
export function driver(seed: number, lat: number, lng: number) {
  const r = rng(seed);
  let heading = r() * 360;
  let speed = 30;
  return {
    get lat() {
      return lat;
    },
    get lng() {
      return lng;
    },
    step(seconds: number) {
      if (r() < 0.02 * seconds) heading = (heading + (r() < 0.5 ? 90 : -90) + 360) % 360;
      heading = (heading + (r() - 0.5) * 4 * seconds + 360) % 360;
      speed = Math.max(0, Math.min(80, speed + (r() - 0.5) * 6 * Math.sqrt(seconds)));
      const km = (speed * seconds) / 3600;
      lat += (km / 111) * Math.cos((heading * Math.PI) / 180);
      lng += (km / (111 * Math.cos((lat * Math.PI) / 180))) * Math.sin((heading * Math.PI) / 180);
      // Stay around Tokyo and Yokohama.
      if (lat < 35.3 || lat > 35.9 || lng < 139.3 || lng > 140.0) heading = (heading + 180) % 360;
      return { lat, lng, speed, heading };
    },
  };
}

async function telemetry(bdb: BenchDb, size: FleetSize, now: number, log: (s: string) => void) {
  const gps = new ColumnWriter(bdb, 'gps_logs', gpsTypes);
  const engine = new ColumnWriter(bdb, 'engine_logs', {
    car_data_id: 'text',
    recorded_at: 'timestamptz',
    running: 'text',
    engine_line: 'text',
  });
  const connection = new ColumnWriter(bdb, 'connection_logs', {
    car_data_id: 'text',
    recorded_at: 'timestamptz',
    state: 'text',
  });
  const battery = new ColumnWriter(bdb, 'battery_logs', {
    car_data_id: 'text',
    recorded_at: 'timestamptz',
    voltage: 'real',
    percentage: 'real',
  });
  const dayMs = 86_400_000;
  const start = now - size.days * dayMs;
  const cars = Array.from({ length: size.telemetryVehicles }, (_, v) =>
    driver(v + 11, 35.5 + (v % 30) * 0.01, 139.5 + (v % 37) * 0.01),
  );
  for (let d = 0; d < size.days; d++) {
    const dayStart = start + d * dayMs;
    for (let v = 0; v < size.telemetryVehicles; v++) {
      const id = imei(v + 1);
      const r = rng(d * 100_003 + v);
      const car = cars[v]!;
      for (let t = dayStart; t < dayStart + dayMs; t += 15 * 60_000)
        await battery.push({
          car_data_id: id,
          recorded_at: iso(t),
          voltage: 12.2 + r() * 0.6,
          percentage: 60 + r() * 40,
        });
      const trips = 2 + Math.floor(r() * 3);
      for (let k = 0; k < trips; k++) {
        const from = dayStart + (7 + (k * 13) / trips + r() * 2) * 3600_000;
        const minutes = 15 + Math.floor(r() * 45);
        await engine.push({ car_data_id: id, recorded_at: iso(from), running: 'on', engine_line: 'connected' });
        await connection.push({ car_data_id: id, recorded_at: iso(from), state: 'connected' });
        for (let s = 0; s < minutes * 6; s++) {
          const p = car.step(10);
          await gps.push({
            car_data_id: id,
            recorded_at: iso(from + s * 10_000),
            ...p,
            satellites: 8 + Math.floor(r() * 6),
            accuracy: 3 + r() * 10,
          });
        }
        const end = from + minutes * 60_000;
        await engine.push({ car_data_id: id, recorded_at: iso(end), running: 'off', engine_line: 'connected' });
        await connection.push({ car_data_id: id, recorded_at: iso(end + 60_000), state: 'disconnected' });
      }
    }
    log(`  telemetry: day ${d + 1}/${size.days}, ${gps.total.toLocaleString('en-US')} GPS rows so far`);
  }
  for (const w of [gps, engine, connection, battery]) await w.flush();
  return {
    gps_logs: gps.total,
    engine_logs: engine.total,
    connection_logs: connection.total,
    battery_logs: battery.total,
  };
}

/** The busy vehicle: a day of 1-second GPS (a drive with stops and turns) and a long battery log, both ending now. */
async function busyVehicle(bdb: BenchDb, size: FleetSize, id: string, now: number) {
  const gps = new ColumnWriter(bdb, 'gps_logs', gpsTypes);
  const car = driver(7, 35.66, 139.7);
  const first = now - size.busyRoutePoints * 1000;
  for (let s = 0; s < size.busyRoutePoints; s++) {
    const p = car.step(1);
    await gps.push({ car_data_id: id, recorded_at: iso(first + s * 1000), ...p, satellites: 10, accuracy: 5 });
  }
  await gps.flush();
  const battery = new ColumnWriter(
    bdb,
    'battery_logs',
    { car_data_id: 'text', recorded_at: 'timestamptz', voltage: 'real', percentage: 'real' },
    50_000,
  );
  const from = now - size.busyLogRows * 1000;
  for (let s = 0; s < size.busyLogRows; s++) {
    await battery.push({
      car_data_id: id,
      recorded_at: iso(from + s * 1000),
      voltage: 12 + Math.sin(s / 3600) * 0.8,
      percentage: 50 + 40 * Math.sin(s / 86_400),
    });
  }
  await battery.flush();
  return { gps: gps.total, battery: battery.total };
}

const logTableNames = [
  'gps_logs',
  'engine_logs',
  'connection_logs',
  'battery_logs',
  'sensor_logs',
  'obd2_logs',
  'error_logs',
] as const;

export async function generateFleet(bdb: BenchDb, size: FleetSize, log: (s: string) => void): Promise<Fleet> {
  const started = performance.now();
  const now = Date.now() - 60_000;
  log(
    `generating ${size.vehicles.toLocaleString('en-US')} vehicles, customers, terminals and accounts in ${size.companies} companies`,
  );
  await masterData(bdb, size, log);
  // The day partitions of the logs (docs/telemetry.md) over the generated time, as the server's job leaves them.
  const oldest = now - Math.max(size.days * 86_400_000, size.busyLogRows * 1000, size.busyRoutePoints * 1000);
  for (let day = oldest - 86_400_000; day <= now + 3 * 86_400_000; day += 86_400_000)
    for (const table of logTableNames) await createLogPartition(bdb.db, table, new Date(day));
  log(`generating ${size.days} day(s) of telemetry for ${size.telemetryVehicles} vehicles`);
  const rows: Record<string, number> = await telemetry(bdb, size, now, log);
  const busyIndex = size.vehicles;
  const busy = { car_id: carId(busyIndex), car_data_id: imei(busyIndex), car_device_id: deviceId(busyIndex) };
  log(
    `generating the busy vehicle ${busy.car_id}: ${size.busyRoutePoints} GPS points, ${size.busyLogRows.toLocaleString('en-US')} battery rows`,
  );
  await bdb.raw('UPDATE cars SET is_delete = false WHERE car_id = $1', [busy.car_id]);
  const b = await busyVehicle(bdb, size, busy.car_data_id, now);
  rows.gps_logs = (rows.gps_logs ?? 0) + b.gps;
  rows.battery_logs = (rows.battery_logs ?? 0) + b.battery;
  log('VACUUM ANALYZE, CHECKPOINT');
  await bdb.raw('VACUUM ANALYZE');
  // Write the bulk load out now, so the measurements do not share the disk with its flushing.
  await bdb.raw('CHECKPOINT');
  return { size, busy, now: new Date(now), rows, seconds: (performance.now() - started) / 1000 };
}
