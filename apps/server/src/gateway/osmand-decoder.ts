/**
 * The OsmAnd protocol of Traccar Client and OsmAnd (docs/device-protocol.md §10),
 * decoded into our device records. Two forms reach the same records:
 * - query (OsmAnd, Traccar Client ≤ 8, most trackers' "OsmAnd" mode):
 *   `?id=IMEI&lat=..&lon=..&timestamp=..&speed=<knots>&bearing=..&altitude=..&accuracy=..&batt=..`
 * - JSON body of Traccar Client 9: `{ device_id, location: { timestamp, coords, battery, is_moving, extras } }`.
 * Nothing here validates ranges: the records go through the gateway's own checks (sortRecords).
 */
export type OsmandQuery = Record<string, string | string[] | undefined>;

export interface OsmandFix {
  /** The IMEI the terminal identifies itself with. */
  imei: string;
  /** When the fix was taken (server time when the terminal did not say). */
  time: Date;
  /** Whether `time` came from the terminal (a retry then repeats it). */
  timed: boolean;
  /** Unvalidated device records (docs/device-protocol.md §3.2). */
  records: Record<string, unknown>[];
}

export type OsmandDecoded =
  { ok: true; fix: OsmandFix } | { ok: false; error: 'noId' | 'badTime' | 'badNumber' | 'empty'; field?: string };

const KNOTS_TO_KMH = 1.852;
const MPS_TO_KMH = 3.6;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

class BadInput extends Error {
  constructor(
    readonly error: 'badTime' | 'badNumber',
    readonly field: string,
  ) {
    super(`${error}: ${field}`);
  }
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

/** A number from text or JSON; absent stays undefined, anything unreadable is bad input. */
function num(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.trim())
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw new BadInput('badNumber', field);
  return n;
}

function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return ['1', 'true', 'on', 'yes'].includes(value.trim().toLowerCase());
}

/**
 * `timestamp` as Unix seconds, Unix milliseconds, or ISO 8601 (a time without a zone is UTC,
 * as Traccar reads it). Numbers below 2^31 are seconds, as in Traccar's decoder.
 */
export function parseOsmandTime(value: unknown): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()))) {
    const n = Number(value);
    // A Date holds ±8.64e15 ms: past it the time is invalid, and toISOString would throw.
    const time = new Date(Math.round(n < 2 ** 31 ? n * 1000 : n));
    if (Number.isNaN(time.getTime())) throw new BadInput('badTime', 'timestamp');
    return time;
  }
  if (typeof value !== 'string') throw new BadInput('badTime', 'timestamp');
  const text = value.trim().replace(' ', 'T');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(text))
    throw new BadInput('badTime', 'timestamp');
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  if (!Number.isFinite(ms)) throw new BadInput('badTime', 'timestamp');
  return new Date(ms);
}

interface Reading {
  imei: string | undefined;
  time: Date | undefined;
  lat?: number;
  lng?: number;
  /** km/h */
  speed?: number;
  heading?: number;
  accuracy?: number;
  altitude?: number;
  batteryPct?: number;
  charging?: boolean;
  ignition?: boolean;
  moving?: boolean;
  /** Cell towers (`cell=mcc,mnc,lac,cid[,signal]`) and Wi-Fi access points (`wifi=mac,signal`), as Traccar takes them. */
  cells?: string[];
  wifi?: string[];
}

/** Every value of a repeated parameter, trimmed, empty ones left out. */
const all = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => x.trim()).filter(Boolean);

function fromQuery(q: OsmandQuery): Reading {
  const get = (name: string) => first(q[name]);
  const location = get('location')?.split(',');
  const knots = num(get('speed'), 'speed');
  return {
    imei: get('id') ?? get('deviceid'),
    time: parseOsmandTime(get('timestamp')),
    lat: num(get('lat') ?? location?.[0], 'lat'),
    lng: num(get('lon') ?? location?.[1], 'lon'),
    speed: knots === undefined ? undefined : round(knots * KNOTS_TO_KMH),
    heading: num(get('bearing') ?? get('heading'), 'bearing'),
    accuracy: num(get('accuracy'), 'accuracy'),
    altitude: num(get('altitude'), 'altitude'),
    batteryPct: num(get('batt'), 'batt'),
    charging: bool(get('charge')),
    ignition: bool(get('ignition')),
    moving: bool(get('motion')),
    cells: all(q.cell),
    wifi: all(q.wifi),
  };
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function fromJson(body: Record<string, unknown>): Reading {
  const location = obj(Array.isArray(body.location) ? body.location[0] : body.location);
  const coords = obj(location.coords);
  const battery = obj(location.battery);
  const mps = num(coords.speed, 'speed');
  const heading = num(coords.heading, 'heading');
  const level = num(battery.level, 'battery.level');
  const id = body.device_id ?? body.deviceid ?? body.id;
  return {
    imei: typeof id === 'string' || typeof id === 'number' ? String(id).trim() || undefined : undefined,
    time: parseOsmandTime(location.timestamp),
    lat: num(coords.latitude, 'latitude'),
    lng: num(coords.longitude, 'longitude'),
    // Traccar Client reports -1 for "unknown" speed and heading.
    speed: mps === undefined || mps < 0 ? undefined : round(mps * MPS_TO_KMH),
    heading: heading === undefined || heading < 0 ? undefined : heading,
    accuracy: num(coords.accuracy, 'accuracy'),
    altitude: num(coords.altitude, 'altitude'),
    batteryPct: level === undefined || level < 0 ? undefined : round(level * 100, 1),
    charging: bool(battery.is_charging),
    ignition: bool(obj(location.extras).ignition),
    moving: bool(location.is_moving),
  };
}

function toRecords(r: Reading, time: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  if (r.lat !== undefined || r.lng !== undefined) {
    records.push({
      type: 'gps',
      time,
      lat: r.lat,
      lng: r.lng,
      speed: r.speed,
      heading: r.heading,
      accuracy: r.accuracy,
    });
  }
  if (r.ignition !== undefined) records.push({ type: 'engine', time, running: r.ignition ? 'on' : 'off' });
  if (r.batteryPct !== undefined) records.push({ type: 'battery', time, percentage: r.batteryPct });
  // A report of cell towers or Wi-Fi alone (no fix) is kept as a report without a position, as Traccar keeps it.
  const radio = {
    cell_towers: r.cells?.length || undefined,
    cell: r.cells?.[0],
    wifi_points: r.wifi?.length || undefined,
  };
  const readings = Object.fromEntries(
    Object.entries({ altitude_m: r.altitude, charging: r.charging, moving: r.moving, ...radio }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  if (Object.keys(readings).length > 0) records.push({ type: 'sensor', time, readings });
  return records.map((rec) => Object.fromEntries(Object.entries(rec).filter(([, v]) => v !== undefined)));
}

/** Decodes one OsmAnd report (query parameters and, for POST, the body). */
export function decodeOsmand(query: OsmandQuery, body: unknown, now: Date): OsmandDecoded {
  const json = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  let reading: Reading;
  try {
    // A POST of Traccar Client 9 carries everything in the body; older clients POST the query form.
    reading = json && (json.location !== undefined || json.device_id !== undefined) ? fromJson(json) : fromQuery(query);
  } catch (err) {
    if (err instanceof BadInput) return { ok: false, error: err.error, field: err.field };
    throw err;
  }
  if (!reading.imei) return { ok: false, error: 'noId' };
  const time = reading.time ?? now;
  const records = toRecords(reading, time.toISOString());
  if (records.length === 0) return { ok: false, error: 'empty' };
  return { ok: true, fix: { imei: reading.imei, time, timed: reading.time !== undefined, records } };
}

/**
 * The batch `seq` of a fix: its time in milliseconds, so a fix sent again (the reply was
 * lost) is the same batch and stored once (idempotent on IMEI + seq).
 */
export const osmandSeq = (fix: OsmandFix) => Math.max(0, fix.time.getTime());
