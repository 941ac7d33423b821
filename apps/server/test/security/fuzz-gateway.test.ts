import { DEVICE_BATCH_PATH, DeviceBatch, DeviceBatchResponse, DeviceRecord } from '@fleet/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleet } from '../helper.js';
import { basic } from '../telemetry-support.js';
import { badAuthorization, bodyFor, fromSchema, junk, rawRequest } from './arbitraries.js';
import { FUZZ_RUNS, checkRefusal } from './fuzz.js';
import { createWorld, installChangeCounter, type World } from './world.js';

/**
 * The device gateway under generated batches: valid records, records with a
 * field dropped or replaced by junk, junk records, broken envelopes, broken
 * JSON, wrong content types and bad credentials. Never a 5xx; a refused batch
 * stores nothing; an accepted one accounts for every record (stored or
 * rejected with a reason).
 */
let w: World;
let writes: () => Promise<number>;
beforeAll(async () => {
  w = await createWorld();
  writes = await installChangeCounter(w.db);
});
afterAll(() => w?.t.close());

/** Records near the server's clock, so valid ones are not all refused as past or future. */
const record = fc.oneof(
  { weight: 4, arbitrary: fromSchema(DeviceRecord) },
  { weight: 4, arbitrary: bodyFor(DeviceRecord) },
  { weight: 1, arbitrary: junk },
);
const recent = fc.date({
  min: new Date(Date.now() - 86_400_000),
  max: new Date(Date.now() + 60_000),
  noInvalidDate: true,
});
const recordNow = fc
  .tuple(record, recent, fc.boolean())
  .map(([r, t, keep]) =>
    keep && r && typeof r === 'object' && !Array.isArray(r) && 'time' in r ? { ...r, time: t.toISOString() } : r,
  );
const batch = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ seq: fc.nat({ max: 1_000_000 }), records: fc.array(recordNow, { maxLength: 12 }) }),
  },
  { weight: 1, arbitrary: fc.record({ seq: junk, records: fc.oneof(junk, fc.array(junk, { maxLength: 3 })) }) },
  { weight: 1, arbitrary: bodyFor(DeviceBatch) },
  { weight: 1, arbitrary: junk },
);
const auth = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(basic(fleet.A.car_device_id), basic(fleet.B.car_device_id)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      basic(fleet.A.car_device_id, 'wrong-secret'),
      basic('no-such-terminal'),
      `Bearer ${'x'.repeat(43)}`,
    ),
  },
  { weight: 1, arbitrary: badAuthorization },
);
const request = fc.oneof(
  { weight: 9, arbitrary: batch.map((body) => ({ kind: 'json' as const, body })) },
  { weight: 1, arbitrary: rawRequest.map((r) => ({ kind: 'raw' as const, ...r })) },
);

describe(`POST ${DEVICE_BATCH_PATH} under generated input`, () => {
  it(`answers ${FUZZ_RUNS * 3} generated batches without a 5xx, storing nothing it refuses`, async () => {
    await fc.assert(
      fc.asyncProperty(auth, request, async (authorization, r) => {
        const before = await writes();
        const payload = r.kind === 'json' ? (JSON.stringify(r.body) ?? 'null') : r.payload;
        const contentType = r.kind === 'json' ? 'application/json' : r.contentType;
        const res = await w.app.inject({
          method: 'POST',
          url: DEVICE_BATCH_PATH,
          payload,
          headers: { authorization, ...(contentType ? { 'content-type': contentType } : {}) },
        });
        const label = `${authorization} ${payload.slice(0, 300)}`;
        checkRefusal(res, label);
        if (res.statusCode >= 400) return void expect(await writes(), `${label}: refused but wrote`).toBe(before);
        const answer = DeviceBatchResponse.parse(res.json());
        const sent = (r.kind === 'json' ? (r.body as { records: unknown[] }) : { records: [] }).records;
        // A repeated seq gets the first batch's answer again.
        if (answer.duplicate) return;
        expect(answer.accepted + answer.rejected.length, label).toBe(sent.length);
        for (const rej of answer.rejected) expect(rej.index).toBeLessThan(sent.length);
      }),
      { numRuns: FUZZ_RUNS * 3 },
    );
  }, 300_000);
});
