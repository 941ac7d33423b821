import type { BenchDb } from './db.js';
import { deviceId } from './generate.js';

/**
 * The generated terminals have an ipaddr of 10.x.x.x, and a terminal's ipaddr is an allow-list every way
 * in checks (the JSON gateway and OsmAnd too, docs/device-protocol.md §13), while the bench's clients
 * report from this machine. The first `count` terminals (those the ingest, TCP, load and trips sections
 * drive) take reports from any source while `run` runs; their lists are put back after, so the list and
 * search sections of a kept database (--reuse) see the same rows.
 */
export async function fromAnySource<T>(bdb: BenchDb, count: number, run: () => Promise<T>): Promise<T> {
  const ids = Array.from({ length: count }, (_, t) => deviceId(t + 1));
  const before = await bdb.raw<{ car_device_id: string; ipaddr: string }>(
    `SELECT car_device_id, ipaddr FROM devices WHERE car_device_id = ANY($1::text[]) AND ipaddr <> ''`,
    [ids],
  );
  await bdb.raw(`UPDATE devices SET ipaddr = '' WHERE car_device_id = ANY($1::text[]) AND ipaddr <> ''`, [ids]);
  try {
    return await run();
  } finally {
    await bdb.raw(
      `UPDATE devices AS d SET ipaddr = v.ipaddr
       FROM unnest($1::text[], $2::text[]) AS v(id, ipaddr) WHERE d.car_device_id = v.id`,
      [before.map((d) => d.car_device_id), before.map((d) => d.ipaddr)],
    );
  }
}
