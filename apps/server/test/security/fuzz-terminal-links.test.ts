import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGt06Location, encodeGt06Login } from '../../src/gateway/tcp/gt06-device.js';
import { gt06Protocol } from '../../src/gateway/tcp/gt06-link.js';
import type { LinkGateway } from '../../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../../src/gateway/tcp/link-listener.js';
import { encodeAvlFrame, encodeLogin } from '../../src/gateway/tcp/teltonika-device.js';
import { teltonikaProtocol } from '../../src/gateway/tcp/teltonika-link.js';
import { createTestApp, fleet, seedFixtures, type TestApp } from '../helper.js';
import { DeviceSocket, linkGateway, listen, setProtocol, sleep } from '../link-support.js';
import { FUZZ_RUNS } from './fuzz.js';

/**
 * The TCP listeners under generated traffic after a valid login: random
 * bytes, valid frames cut short, with bytes flipped or junk behind them, sent
 * in random pieces. The server never crashes, stores an intact frame (and
 * acknowledges it) and nothing of a damaged one, and the next terminal is served as usual.
 */
let t: TestApp;
let gateway: LinkGateway;
let teltonika: LinkListener;
let gt06: LinkListener;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  ({ gateway } = linkGateway(t.db, 1000));
  teltonika = await listen(gateway, teltonikaProtocol, { frameTimeoutMs: 200 });
  gt06 = await listen(gateway, gt06Protocol, { frameTimeoutMs: 200 });
});
afterAll(async () => {
  await gateway?.stop();
  await teltonika?.close();
  await gt06?.close();
  await t?.close();
});

const gps = async (imei: string) =>
  Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM gps_logs WHERE car_data_id = ${imei}`.execute(t.db))
      .rows[0]!.n,
  );
let clock = Date.now() - 86_400_000;
const fix = fc.record({
  speed: fc.integer({ min: 0, max: 120 }),
  lat: fc.double({ min: 35, max: 36, noNaN: true }),
  lng: fc.double({ min: 139, max: 140, noNaN: true }),
});
const bytes = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((a) => Buffer.from(a));
/** The frame intact, or random bytes, cut short or with a byte flipped (CRC-16 catches every single-byte error). */
const damage = (frame: Buffer) =>
  fc.oneof(
    fc.constant({ buf: frame, intact: true }),
    bytes.map((buf) => ({ buf, intact: false })),
    fc.nat().map((n) => ({ buf: frame.subarray(0, n % frame.length), intact: false })),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const out = Buffer.from(frame);
      out[at % out.length] = out[at % out.length]! ^ x;
      return { buf: out, intact: false };
    }),
  );
const pieces = ({ buf, intact }: { buf: Buffer; intact: boolean }) =>
  fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 }).map((cuts) => ({ parts: cut(buf, cuts), intact }));
const cut = (buf: Buffer, cuts: number[]) => {
  const out: Buffer[] = [];
  let at = 0;
  for (const c of cuts) if (at < buf.length) out.push(buf.subarray(at, (at += c)));
  if (at < buf.length) out.push(buf.subarray(at));
  return out;
};

/** Logs in, sends the pieces; an intact frame's acknowledgement (`ackBytes`) is waited for, anything else gets 100 ms. */
async function play(port: number, login: Buffer, loginReply: number, parts: Buffer[], ackBytes: number | null) {
  const d = await DeviceSocket.open(port);
  d.send(login);
  await d.take(loginReply);
  for (const p of parts) {
    d.send(p);
    await sleep(1);
  }
  if (ackBytes === null) await sleep(100);
  else await d.take(ackBytes);
  d.close();
  // The server's side of the closed connection (its disconnection record) settles before the next case counts.
  await sleep(50);
  return d;
}

describe('TCP listeners under generated frames', () => {
  it(
    `Teltonika: ${Math.max(10, FUZZ_RUNS / 4)} generated sessions store an intact frame (acknowledged) and nothing of a damaged one`,
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .array(fix, { minLength: 1, maxLength: 3 })
            .chain((fixes) =>
              damage(encodeAvlFrame(fixes.map((f) => ({ ...f, time: new Date((clock += 1000)) })))).map((d) => ({
                ...d,
                n: fixes.length,
              })),
            )
            .chain(({ n, ...d }) => pieces(d).map((p) => ({ ...p, n }))),
          async ({ parts, intact, n }) => {
            const before = await gps(fleet.A.car_data_id);
            await play(teltonika.port, encodeLogin(fleet.A.car_data_id), 1, parts, intact ? 4 : null);
            expect(await gps(fleet.A.car_data_id)).toBe(before + (intact ? n : 0));
          },
        ),
        { numRuns: Math.max(10, FUZZ_RUNS / 4) },
      );
      const d = await DeviceSocket.open(teltonika.port);
      d.send(encodeLogin(fleet.A.car_data_id));
      expect(await d.take(1)).toEqual(Buffer.from([1]));
      d.send(encodeAvlFrame([{ time: new Date((clock += 1000)), lat: 35.6, lng: 139.7, speed: 0 }]));
      expect((await d.take(4)).readUInt32BE(0)).toBe(1);
      d.close();
    },
  );
  it(
    `GT06: ${Math.max(10, FUZZ_RUNS / 4)} generated sessions, the same, and the listener still serves`,
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fix
            .chain((f) => damage(encodeGt06Location({ ...f, time: new Date((clock += 1000)), acc: true }, 5)))
            .chain(pieces),
          async ({ parts, intact }) => {
            const before = await gps(fleet.B.car_data_id);
            await play(gt06.port, encodeGt06Login(fleet.B.car_data_id, 1), 10, parts, intact ? 10 : null);
            expect(await gps(fleet.B.car_data_id)).toBe(before + (intact ? 1 : 0));
          },
        ),
        { numRuns: Math.max(10, FUZZ_RUNS / 4) },
      );
      const d = await DeviceSocket.open(gt06.port);
      d.send(encodeGt06Login(fleet.B.car_data_id, 9));
      expect((await d.take(10))[3]).toBe(0x01);
      d.close();
    },
  );
});
