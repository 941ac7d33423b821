import type { BenchDb } from './db.js';
import { deviceId, TERMINAL_SECRET } from './generate.js';
import { benchIngest, relabelled, type IngestOptions } from './ingest.js';
import { trackAt } from './ingest-records.js';
import { Report, type Figure } from './report.js';
import type { BenchServer } from './server.js';
import { int } from './stats.js';

/**
 * Zones (docs/zones.md): the gateway's ingest against raw INSERT (the ingest section's measurement) with
 * 10,000 zones in each company of the reporting terminals, each vehicle assigned the few hundred of its
 * company's zones around its own track, twice:
 * - `sites`, the target: the zones a fleet draws (depots, customers' yards), 150 m circles a kilometre apart,
 *   every tenth a square polygon; a vehicle passes through one every few minutes;
 * - `dense`, a stress figure without a target: 150 m circles 180 m × 330 m apart, overlapping, so a vehicle
 *   crosses a boundary every fourth record, each crossing an alert stored beside the positions.
 * Each layout assigns the zones around the tracks the ingest measurement drives (ingest-records.ts), so the
 * figure does not depend on which sections ran before.
 */
export const ZONES_PER_COMPANY = 10_000;

interface Layout {
  name: 'sites' | 'dense';
  label: string;
  /** The grid's south-west corner and steps in degrees (100 × 100 zones). */
  lat0: number;
  lng0: number;
  latStep: number;
  lngStep: number;
  /** A vehicle is assigned its company's zones within this of its track's start, in degrees. */
  reachLat: number;
  reachLng: number;
  target: boolean;
}

const LAYOUTS: readonly Layout[] = [
  {
    name: 'sites',
    label: 'sites 1 km apart',
    lat0: 35.55,
    lng0: 139.45,
    latStep: 0.01,
    lngStep: 0.012,
    reachLat: 0.1,
    reachLng: 0.1,
    target: true,
  },
  {
    name: 'dense',
    label: 'dense (stress, no target): overlapping circles',
    lat0: 35.55,
    lng0: 139.55,
    latStep: 0.003,
    lngStep: 0.002,
    reachLat: 0.03,
    reachLng: 0.02,
    target: false,
  },
];

export async function benchZones(bdb: BenchDb, server: BenchServer, report: Report, opts: { ingest: IngestOptions }) {
  const onPg = bdb.kind === 'postgres';
  for (const layout of LAYOUTS) {
    await layZones(bdb, report, opts.ingest, layout);
    if (!onPg) {
      report.note('zones: ingest with zones is measured on PostgreSQL only, as the ingest section is');
      break;
    }
    const section = `zones ${layout.name}`;
    const into = layout.target ? report : withoutTargets(report);
    await warmIndexes(bdb, server, into, section, opts.ingest);
    const crossings = `SELECT count(*) AS n FROM alerts WHERE kind IN ('zone_enter', 'zone_exit')`;
    const [before] = await bdb.raw<{ n: string }>(crossings);
    await benchIngest(
      bdb,
      server,
      relabelled(into, section, `${int(ZONES_PER_COMPANY)} zones per company, ${layout.label}`),
      opts.ingest,
    );
    const [after] = await bdb.raw<{ n: string }>(crossings);
    const stored = Number(after!.n) - Number(before?.n ?? 0);
    const records = opts.ingest.terminals * (opts.ingest.batchesPerTerminal + opts.ingest.pacedBatches) * 50;
    report.add({
      section,
      name: 'zone crossings stored during the ingest (timed and paced runs)',
      value: `${int(stored)} crossings stored as alerts, one per ${(records / Math.max(1, stored)).toFixed(0)} records sent`,
    });
  }
  // The sections after this one measure without zones.
  await bdb.raw('DELETE FROM car_zone_states');
  await bdb.raw('DELETE FROM car_zones');
  await bdb.raw('DELETE FROM zones');
  await bdb.raw(`UPDATE zone_versions SET token = md5(random()::text)`);
}

/** A stress figure is printed with its ratio and no target. */
function withoutTargets(report: Report): Report {
  return new (class extends Report {
    override add(f: Figure) {
      report.add({ ...f, target: undefined, met: undefined, verdict: undefined });
    }
    override note(text: string) {
      report.note(text);
    }
  })();
}

/** The bench terminals' vehicles (the ingest measurement's first `terminals` devices). */
const benchCars = (terminals: number) =>
  `(SELECT car_id, company_id, car_data_id FROM cars WHERE NOT is_delete AND car_data_id IS NOT NULL
    AND car_device_id IN (SELECT car_device_id FROM devices ORDER BY car_device_id LIMIT ${terminals}))`;

async function layZones(bdb: BenchDb, report: Report, ingest: IngestOptions, l: Layout) {
  const t = performance.now();
  const cars = benchCars(ingest.terminals);
  await bdb.raw('DELETE FROM car_zone_states');
  await bdb.raw('DELETE FROM car_zones');
  await bdb.raw('DELETE FROM zones');
  const lat = `(${l.lat0} + (g / 100) * ${l.latStep})`;
  const lng = `(${l.lng0} + (g % 100) * ${l.lngStep})`;
  const corner = (dLat: number, dLng: number) => `jsonb_build_object('lat', ${lat} + ${dLat}, 'lng', ${lng} + ${dLng})`;
  await bdb.raw(
    `INSERT INTO zones (zone_id, company_id, name, shape, color, lat, lng, radius_m, points)
     SELECT c.company_id || '-z' || g, c.company_id, 'ゾーン' || g,
            CASE WHEN g % 10 = 0 THEN 'polygon' ELSE 'circle' END, '#e8590c',
            CASE WHEN g % 10 = 0 THEN NULL ELSE ${lat} END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE ${lng} END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE 150 END,
            CASE WHEN g % 10 = 0 THEN jsonb_build_array(${corner(-0.001, -0.001)}, ${corner(-0.001, 0.001)},
              ${corner(0.001, 0.001)}, ${corner(0.001, -0.001)}) END
     FROM (SELECT DISTINCT company_id FROM ${cars} x) c, generate_series(0, ${ZONES_PER_COMPANY - 1}) g`,
  );
  // Each vehicle: its company's zones (a polygon by its first corner) near where its track starts.
  const starts = Array.from({ length: ingest.terminals }, (_, i) =>
    trackAt(i, -ingest.warmupBatches * ingest.recordsPerBatch),
  );
  await bdb.raw(
    `INSERT INTO car_zones (car_id, zone_id)
     SELECT v.car_id, z.zone_id
     FROM unnest($1::text[], $2::float8[], $3::float8[]) AS t(dev, lat, lng)
     JOIN cars v ON v.car_device_id = t.dev AND NOT v.is_delete
     JOIN zones z ON z.company_id = v.company_id
      AND abs(coalesce(z.lat, (z.points->0->>'lat')::float8) - t.lat) < ${l.reachLat}
      AND abs(coalesce(z.lng, (z.points->0->>'lng')::float8) - t.lng) < ${l.reachLng}`,
    [starts.map((_, i) => deviceId(i + 1)), starts.map((s) => s.lat), starts.map((s) => s.lng)],
  );
  await bdb.raw(
    `INSERT INTO zone_versions (company_id, token) SELECT company_id, md5(random()::text) FROM (SELECT DISTINCT company_id FROM ${cars} x) c
     ON CONFLICT (company_id) DO UPDATE SET token = excluded.token`,
  );
  await bdb.raw('VACUUM ANALYZE zones');
  await bdb.raw('VACUUM ANALYZE car_zones');
  const [n] = await bdb.raw<{ zones: string; assigned: string; companies: string }>(
    `SELECT (SELECT count(*) FROM zones) AS zones, (SELECT count(*) FROM car_zones) AS assigned,
            (SELECT count(DISTINCT company_id) FROM zones) AS companies`,
  );
  report.note(
    `zones ${l.name}: ${int(Number(n!.zones))} zones in ${n!.companies} companies (${int(ZONES_PER_COMPANY)} each), ` +
      `${int(Number(n!.assigned))} assignments, written in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
}

/**
 * Each company's index is built by the first batch of one of its vehicles after the change (once, as after
 * any change of its zones): one battery reading per company, before the timed run as before its warm-up.
 */
async function warmIndexes(bdb: BenchDb, server: BenchServer, report: Report, section: string, ingest: IngestOptions) {
  const firsts = await bdb.raw<{ car_device_id: string }>(
    `SELECT DISTINCT ON (v.company_id) d.car_device_id FROM ${benchCars(ingest.terminals)} v
     JOIN devices d ON d.car_data_id = v.car_data_id ORDER BY v.company_id, d.car_device_id`,
  );
  const warmed = performance.now();
  for (const [i, f] of firsts.entries()) {
    const res = await fetch(`${server.url}/device/v1/batch`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${f.car_device_id}:${TERMINAL_SECRET}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        seq: Date.now() * 100 - 1_000_000 + i,
        records: [{ type: 'battery', time: new Date().toISOString(), voltage: 12.6, percentage: 90 }],
      }),
    });
    if (!res.ok) throw new Error(`zone index warm-up answered ${res.status} ${await res.text()}`);
  }
  report.add({
    section,
    name: `the zone index built, ${int(ZONES_PER_COMPANY)} zones (first batch of a company after a change)`,
    value: `${((performance.now() - warmed) / firsts.length).toFixed(0)} ms a company (mean of ${firsts.length})`,
  });
}
