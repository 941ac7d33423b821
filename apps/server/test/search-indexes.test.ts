import { deviceList, deviceListCount } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { rebuildSearchIndexes } from '../src/db/search-indexes.js';
import { serverJobs } from '../src/jobs/jobs.js';
import { createSignedInApp, type SignedInApp } from './helper.js';

/**
 * The lists' search indexes rebuilt once their table was rewritten by a tenth of its rows (db/search-indexes.ts):
 * a GIN index written through at once reads several times slower after its table's rows were updated and vacuumed.
 */
const embedded = !inject('databaseUrl');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
let t: SignedInApp;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin']);
});
afterAll(() => t?.close());

/** The activity counters are written out at most once a second: now, for the next statement to read them. */
const flushCounters = () => sql`SELECT pg_stat_force_next_flush()`.execute(t.db);
const rebuild = () => rebuildSearchIndexes(t.db, { concurrently: !embedded });
/** An index's file: a new one once it is rebuilt. */
const fileOf = async (index: string) =>
  (await sql<{ file: string }>`SELECT relfilenode::text AS file FROM pg_class WHERE relname = ${index}`.execute(t.db))
    .rows[0]!.file;

describe('search indexes rebuilt after many rewrites', () => {
  it("rebuilds a rewritten table's GIN indexes once, and not again until it is rewritten again", async () => {
    await sql`INSERT INTO devices (car_device_id, password_hash, car_data_id, ipaddr, updated_at)
      SELECT 'gin-' || i, 'x', '35888880000' || lpad(i::text, 4, '0'), '10.0.' || (i / 250) || '.' || (i % 250), now()
      FROM generate_series(1, 2000) AS i`.execute(t.db);
    await flushCounters();
    // Inserted only: nothing rewritten, nothing rebuilt (and the other tables were not touched).
    expect(await rebuild()).toEqual([]);

    // Every terminal written a second time (as registering its vehicle does), the old versions vacuumed away.
    await sql`UPDATE devices SET macaddr = 'aa:bb:' || car_device_id WHERE car_device_id LIKE 'gin-%'`.execute(t.db);
    await sql`VACUUM devices`.execute(t.db);
    await flushCounters();
    const before = await fileOf('devices_ipaddr_trgm_idx');
    const rebuilt = await rebuild();
    expect(rebuilt).toContain('devices_ipaddr_trgm_idx');
    expect(rebuilt).toContain('devices_macaddr_trgm_idx');
    expect(rebuilt.every((name) => name.startsWith('devices_'))).toBe(true);
    expect(await fileOf('devices_ipaddr_trgm_idx')).not.toBe(before);

    // Remembered: not again, nor after fewer rewrites than the threshold (50 + 10 % of the rows).
    expect(await rebuild()).toEqual([]);
    await sql`UPDATE devices SET macaddr = 'cc:' || car_device_id WHERE car_device_id IN ('gin-1', 'gin-2', 'gin-3')`.execute(
      t.db,
    );
    await flushCounters();
    expect(await rebuild()).toEqual([]);

    // The rebuilt indexes answer the searches as before.
    const search = { search_item: '1', search_text: '.7.1' };
    const count = await t.call(deviceListCount, search, 'superAdmin');
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM devices
      WHERE ipaddr LIKE '%.7.1%' AND NOT is_delete`.execute(t.db);
    expect(count.body.count).toBe(rows[0]!.n);
    expect(count.body.count).toBeGreaterThan(0);
    const page = await t.call(deviceList, { ...search, limit: 100 }, 'superAdmin');
    expect(page.body.list.every((d) => d.ipaddr.includes('.7.1'))).toBe(true);
  });

  it.runIf(!embedded)('drops an index a concurrent rebuild left invalid before rebuilding', async () => {
    // A failed concurrent build leaves its index invalid (written on every write, never read): as a REINDEX
    // CONCURRENTLY whose process died leaves its `_ccnew` copy.
    await sql
      .raw(`CREATE UNIQUE INDEX CONCURRENTLY devices_ipaddr_trgm_idx_ccnew ON devices (car_type)`)
      .execute(t.db)
      .catch(() => undefined);
    const invalid = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'devices_ipaddr_trgm_idx_ccnew'`.execute(t.db)
      ).rows[0]!.n;
    expect(await invalid()).toBe(1);
    await rebuild();
    expect(await invalid()).toBe(0);
  });

  it('runs among the server jobs', async () => {
    const { jobs, close } = serverJobs({ db: t.db, config: loadConfig({ NODE_ENV: 'test' }), log: silent });
    await close();
    expect(jobs.map((j) => j.name)).toContain('search indexes');
  });
});
