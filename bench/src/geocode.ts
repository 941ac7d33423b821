import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverAddresses, fillAddresses } from '@fleet/server/geocode-fill';
import { gsiReverseGeocoder } from '@fleet/server/geocode-provider';
import type { BenchDb } from './db.js';
import { benchIngestBeside, type IngestOptions } from './ingest.js';
import type { Report } from './report.js';
import type { BenchServer } from './server.js';
import { int } from './stats.js';

/** Requests a second the bench's job is allowed: ten times the default, to load the database more than a deployment would. */
const RATE = 20;

/**
 * Addresses (docs/geocoding.md): the gateway's ingest against raw INSERT (the ingest section's measurement) while
 * the geocode jobs run as every instance runs them (new cells found, then looked up within the rate limit)
 * against a loopback stub answering in GSI's LonLatToAddress format. Geocoding stays out of ingest's
 * transaction, so the ratio should be the ingest section's.
 */
export async function benchGeocode(bdb: BenchDb, server: BenchServer, report: Report, opts: { ingest: IngestOptions }) {
  const section = 'geocode';
  let asked = 0;
  const stub = createServer((req, res) => {
    asked++;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ results: { muniCd: '13101', lv01Nm: '丸の内一丁目' } }));
  });
  await new Promise<void>((ok) => stub.listen(0, '127.0.0.1', ok));
  const reverse = gsiReverseGeocoder(
    `http://127.0.0.1:${(stub.address() as AddressInfo).port}/reverse-geocoder/LonLatToAddress`,
    5_000,
  );
  let looked = 0;
  let lastDiscovery = 0;
  try {
    await benchIngestBeside(bdb, server, report, {
      section,
      label: 'geocoding on (stub)',
      ingest: opts.ingest,
      step: async () => {
        if (Date.now() - lastDiscovery > 5_000) {
          await discoverAddresses(bdb.db);
          lastDiscovery = Date.now();
        }
        looked += await fillAddresses(bdb.db, { reverse, rate: RATE, budgetMs: 1_000 });
      },
    });
  } finally {
    stub.close();
  }
  report.add({
    section,
    name: 'addresses looked up during the ingest',
    value: `${int(looked)} cells (${int(asked)} requests at ${RATE}/s at most)`,
  });
}
