import type { BenchDb } from './db.js';
import { TERMINAL_SECRET } from './generate.js';
import { benchIngest, relabelled, type IngestOptions } from './ingest.js';
import type { Report } from './report.js';
import type { BenchServer } from './server.js';
import { int } from './stats.js';

/**
 * Zones (docs/zones.md): the gateway's ingest against raw INSERT (the ingest section's measurement) with
 * 10,000 zones in each company of the reporting terminals (circles of 150 m on a grid over the area the
 * terminals drive in, every tenth a square polygon), and each vehicle assigned the few hundred of its
 * company's zones around its track, so points cross boundaries and crossings are stored as they come.
 */
export const ZONES_PER_COMPANY = 10_000;

export async function benchZones(bdb: BenchDb, server: BenchServer, report: Report, opts: { ingest: IngestOptions }) {
  const section = 'zones';
  const onPg = bdb.kind === 'postgres';
  const t = performance.now();
  const cars = `(SELECT car_id, company_id, car_data_id FROM cars WHERE NOT is_delete AND car_data_id IS NOT NULL
    AND car_device_id IN (SELECT car_device_id FROM devices ORDER BY car_device_id LIMIT ${opts.ingest.terminals}))`;
  await bdb.raw('DELETE FROM car_zone_states');
  await bdb.raw('DELETE FROM car_zones');
  await bdb.raw('DELETE FROM zones');
  // A 100 × 100 grid over lat 35.55-35.85, lng 139.55-139.75 per company.
  await bdb.raw(
    `INSERT INTO zones (zone_id, company_id, name, shape, color, lat, lng, radius_m, points)
     SELECT c.company_id || '-z' || g, c.company_id, 'ゾーン' || g,
            CASE WHEN g % 10 = 0 THEN 'polygon' ELSE 'circle' END, '#e8590c',
            CASE WHEN g % 10 = 0 THEN NULL ELSE 35.55 + (g / 100) * 0.003 END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE 139.55 + (g % 100) * 0.002 END,
            CASE WHEN g % 10 = 0 THEN NULL ELSE 150 END,
            CASE WHEN g % 10 = 0 THEN jsonb_build_array(
              jsonb_build_object('lat', 35.55 + (g / 100) * 0.003 - 0.001, 'lng', 139.55 + (g % 100) * 0.002 - 0.001),
              jsonb_build_object('lat', 35.55 + (g / 100) * 0.003 - 0.001, 'lng', 139.55 + (g % 100) * 0.002 + 0.001),
              jsonb_build_object('lat', 35.55 + (g / 100) * 0.003 + 0.001, 'lng', 139.55 + (g % 100) * 0.002 + 0.001),
              jsonb_build_object('lat', 35.55 + (g / 100) * 0.003 + 0.001, 'lng', 139.55 + (g % 100) * 0.002 - 0.001))
            END
     FROM (SELECT DISTINCT company_id FROM ${cars} x) c, generate_series(0, ${ZONES_PER_COMPANY - 1}) g`,
  );
  // Each vehicle: its company's zones within a few kilometres of its latest position.
  await bdb.raw(
    `INSERT INTO car_zones (car_id, zone_id)
     SELECT v.car_id, z.zone_id
     FROM ${cars} v
     JOIN device_latest_state s ON s.car_data_id = v.car_data_id
     JOIN zones z ON z.company_id = v.company_id
       AND z.shape = 'circle' AND abs(z.lat - s.lat) < 0.03 AND abs(z.lng - s.lng) < 0.02
     UNION
     SELECT v.car_id, z.zone_id FROM ${cars} v JOIN zones z ON z.company_id = v.company_id
       AND z.shape = 'polygon' AND z.lat IS NULL AND (split_part(z.zone_id, '-z', 2)::int % 1000) = 0`,
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
    `zones: ${int(Number(n!.zones))} zones in ${n!.companies} companies (${int(ZONES_PER_COMPANY)} each), ` +
      `${int(Number(n!.assigned))} assignments, written in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
  if (!onPg) {
    report.note('zones: ingest with zones is measured on PostgreSQL only, as the ingest section is');
    return;
  }
  // Each company's index is built by the first batch of one of its vehicles after the change (once, as after
  // any change of its zones): one battery reading per company, before the timed run as before its warm-up.
  const firsts = await bdb.raw<{ car_device_id: string }>(
    `SELECT DISTINCT ON (v.company_id) d.car_device_id FROM ${cars} v JOIN devices d ON d.car_data_id = v.car_data_id
     ORDER BY v.company_id, d.car_device_id`,
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
  const crossings = `SELECT count(*) AS n FROM alerts WHERE kind IN ('zone_enter', 'zone_exit')`;
  const [before] = await bdb.raw<{ n: string }>(crossings);
  try {
    await benchIngest(
      bdb,
      server,
      relabelled(report, section, `${int(ZONES_PER_COMPANY)} zones per company`),
      opts.ingest,
    );
  } finally {
    // The sections after this one measure without zones.
    await bdb.raw('DELETE FROM car_zones');
    await bdb.raw('DELETE FROM zones');
    await bdb.raw(`UPDATE zone_versions SET token = md5(random()::text)`);
  }
  const [after] = await bdb.raw<{ n: string }>(crossings);
  report.add({
    section,
    name: 'zone crossings stored during the ingest',
    value: `${int(Number(after!.n) - Number(before?.n ?? 0))} crossings stored as alerts`,
  });
}
