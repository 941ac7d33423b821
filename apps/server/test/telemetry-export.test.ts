import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import { exportFileStamp, LOG_EXPORT_PATH, me, telemetryMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AppContext } from '../src/http/context.js';
import { EXPORT_BATCH, copyPathCsv, rowPathCsv } from '../src/telemetry/export.routes.js';
import { findLogBatch } from '../src/telemetry/log.repository.js';
import { createSignedInApp, type SignedInApp } from './helper.js';
import { at, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: SignedInApp;
let tokenA: string;
let tokenB: string;
let tokenA2: string;

beforeAll(async () => {
  t = await createSignedInApp(['managerA', 'adminB', 'staffA']);
  ({ managerA: tokenA, adminB: tokenB, staffA: tokenA2 } = t.tokens);
  await sendBatch(t.app, terminalA, {
    seq: 1,
    records: [
      { type: 'obd2', time: at(0), pids: { rpm: 900, note: 'idle, "cold"' } },
      { type: 'obd2', time: at(1), pids: { rpm: 2100 } },
      {
        type: 'error',
        time: at(2),
        error_type: 'sensor',
        status_code: 1002,
        detail: '=HYPERLINK("http://evil.example","x")',
      },
      { type: 'error', time: at(3), error_type: 'gps', status_code: 0, detail: '+81 @home -1' },
      { type: 'gps', time: at(4), lat: 35.68, lng: 139.76, speed: 12.5, heading: 270, satellites: 8, accuracy: 3 },
    ],
  });
});
afterAll(() => t?.close());

const exportUrl = (q: Record<string, string>) => `${LOG_EXPORT_PATH}?${new URLSearchParams(q)}`;
const get = (q: Record<string, string>, token?: string) =>
  t.app.inject({ method: 'GET', url: exportUrl(q), headers: token ? { authorization: `Bearer ${token}` } : {} });

describe(`GET ${LOG_EXPORT_PATH}`, () => {
  it('streams a CSV with a byte-order mark, Japanese headers, JST times, newest first, the rest of an object as JSON', async () => {
    const before = exportFileStamp(new Date());
    const res = await get({ kind: 'obd2', car_data_id: terminalA.imei }, tokenA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The file name's time is Japan time (YYYYMMDDHHmm).
    const name = /^attachment; filename="obd2_log_(\d+)_(\d{12})\.csv"$/.exec(
      String(res.headers['content-disposition']),
    );
    expect(name?.[1]).toBe(terminalA.imei);
    expect([before, exportFileStamp(new Date())]).toContain(name?.[2]);
    expect(res.body).toBe(
      '\uFEFF日時,エンジン回転数 (rpm),車速 (km/h),冷却水温 (℃),燃料残量 (%),エンジン負荷 (%),スロットル開度 (%),その他の値\r\n' +
        '2026/01/15 12:01:00,2100,,,,,,\r\n' +
        '2026/01/15 12:00:00,900,,,,,,"{""note"":""idle, \\""cold\\""""}"\r\n',
    );
  });

  it('neutralises text a spreadsheet would run as a formula', async () => {
    const res = await get({ kind: 'error', car_data_id: terminalA.imei }, tokenA);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFF日時,種別,ステータスコード,詳細');
    expect(lines[1]).toBe(`2026/01/15 12:03:00,GPS,0,'+81 @home -1`);
    expect(lines[2]).toBe(`2026/01/15 12:02:00,センサー,1002,"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('writes numbers as numbers', async () => {
    const res = await get({ kind: 'gps', car_data_id: terminalA.imei }, tokenA);
    // 住所 is empty until the geocode job looked the cell up (geocode.test.ts).
    expect(res.body.split('\r\n')[1]).toBe('2026/01/15 12:04:00,35.68,139.76,12.5,270,8,3,');
  });

  it('exports nothing (204, empty body) for an empty log or range', async () => {
    const empty = await get({ kind: 'battery', car_data_id: terminalA.imei }, tokenA);
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
    const outside = await get(
      { kind: 'obd2', car_data_id: terminalA.imei, from: '2020-01-01', to: '2020-01-02' },
      tokenA,
    );
    expect(outside.statusCode).toBe(204);
  });

  it('applies the date range', async () => {
    const res = await get({ kind: 'obd2', car_data_id: terminalA.imei, from: at(1), to: at(1) }, tokenA);
    expect(res.body.split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('answers 401 without a token, 404 for another company, 400 for a bad query', async () => {
    expect((await get({ kind: 'obd2', car_data_id: terminalA.imei })).statusCode).toBe(401);
    expect((await get({ kind: 'obd2', car_data_id: terminalA.imei }, tokenB)).statusCode).toBe(404);
    const bad = await get({ kind: 'passwords', car_data_id: terminalA.imei }, tokenA);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('kind');
    expect((await get({ kind: 'gps', car_data_id: terminalA.imei, from: '2026-01-01' }, tokenA)).json().errors).toEqual(
      {
        to: '開始日時と終了日時の両方を入力してください',
      },
    );
  });

  it('also answers POST with the query as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: LOG_EXPORT_PATH,
      payload: { kind: 'gps', car_data_id: terminalA.imei },
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('\uFEFF日時,緯度,経度')).toBe(true);
  });

  it('streams a log larger than one read batch completely, each row once', async () => {
    await sql`INSERT INTO connection_logs (car_data_id, recorded_at, state)
      SELECT ${terminalB.imei}, timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => i / 3), CASE WHEN i % 2 = 0 THEN 'connected' ELSE 'disconnected' END
      FROM generate_series(0, 12344) AS i`.execute(t.db);
    const res = await get({ kind: 'connection', car_data_id: terminalB.imei }, tokenB);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(12_346);
    expect(new Set(lines).size).toBeLessThan(lines.length); // same-second rows repeat their text...
    const states = lines.slice(1).map((l) => l.split(',')[1]);
    expect(states.filter((s) => s === '接続')).toHaveLength(6173); // ...but every row comes exactly once
    expect(states.filter((s) => s === '切断')).toHaveLength(6172);
    expect(lines[1]! > lines.at(-1)!).toBe(true); // newest first
  });
});

/**
 * On PostgreSQL the export is written by the database (COPY, export.copy.ts); on PGlite, and for
 * the JSON logs, by the contract's csvRow from rows read through the driver. Awkward data
 * (formula starts, quotes, commas, line breaks, backslashes, Japanese, NULLs, times near midnight
 * in Japan and given in other zones, numbers either side of where JS and PostgreSQL change
 * notation, -0, NaN, Infinity) must come out byte for byte the same on both databases (the same
 * expected file) and, on PostgreSQL, from both paths.
 */
describe('the same bytes from COPY (PostgreSQL) and from rows (PGlite)', () => {
  const imei = terminalB.imei;
  const texts = [
    '=1+1',
    '+81',
    '-1',
    '@SUM(A1)',
    '\tx',
    '\r=1',
    '\n=1',
    'a,b',
    'say "hi"',
    'line1\r\nline2',
    'back\\slash \\N \\t',
    '日本語の詳細、「引用」',
    '',
    ' =not first',
    "'=quoted",
  ];
  const times = [
    '2026-01-15T14:59:59.999999Z',
    '2026-01-15T15:00:00Z',
    '1999-12-31T15:00:00.0005+00',
    '2026-03-08T02:30:00-05:00',
    '2026-06-30T23:59:59.123456+09:00',
  ];
  const floats = [
    '35.681236',
    '-0',
    '1e-7',
    '1.5e-5',
    '0.0001',
    '1e6',
    '1e15',
    '1e21',
    '123456789.123',
    '-2.5e-7',
    'NaN',
    'Infinity',
    '-Infinity',
    null,
  ];
  const exported = (kind: string, range: Record<string, string> = {}) =>
    get({ kind, car_data_id: imei, ...range }, tokenB);

  beforeAll(async () => {
    const time = (i: number) => times[i % times.length]!;
    for (const [i, detail] of texts.entries())
      await sql`INSERT INTO error_logs (car_data_id, recorded_at, error_type, status_code, detail)
        VALUES (${imei}, ${time(i)}::timestamptz + make_interval(days => ${i}), 'sensor', ${i - 2}, ${detail})`.execute(
        t.db,
      );
    for (const [i, text] of [...texts, null].entries())
      await sql`INSERT INTO engine_logs (car_data_id, recorded_at, running, engine_line, command, command_id, account_id)
        VALUES (${imei}, ${time(i)}::timestamptz + make_interval(days => ${i}), ${text}, ${i % 2 ? 'off' : null}, ${i % 3 ? null : i % 2}, ${i % 3 ? null : 1000 + i}, ${text})`.execute(
        t.db,
      );
    for (const [i, f] of floats.entries()) {
      const g = f === null ? null : Number.isFinite(Number(f)) ? f : '0';
      await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading, satellites, accuracy)
        VALUES (${imei}, ${time(i)}::timestamptz + make_interval(days => ${i}), ${g ?? '0'}::float8, ${f ?? '0'}::float8, ${f}::real, ${g}::real, ${i % 4 ? i - 5 : null}, ${f}::real)`.execute(
        t.db,
      );
      await sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage, percentage)
        VALUES (${imei}, ${time(i)}::timestamptz + make_interval(days => ${i}), ${f}::real, ${g}::real)`.execute(t.db);
    }
    for (const [i, state] of texts.entries())
      await sql`INSERT INTO connection_logs (car_data_id, recorded_at, state)
        VALUES (${imei}, timestamptz '2030-01-01T00:00:00Z' + make_interval(mins => ${i}), ${state})`.execute(t.db);
  });

  it('writes the expected file on either database', async () => {
    // One after the other: an account runs one export at a time.
    const files: Record<string, string> = {};
    for (const kind of ['error', 'engine', 'gps', 'battery']) {
      const res = await exported(kind);
      expect(res.statusCode).toBe(200);
      files[kind] = res.body;
    }
    const range = await exported('connection', { from: '2030-01-01T00:03:00Z', to: '2030/01/01 09:08' });
    // Every byte shown: the byte-order mark, CR and tab made visible (a snapshot keeps LF only).
    const visible = (csv: string) => csv.replace('\uFEFF', '[BOM]').replaceAll('\r', '␍').replaceAll('\t', '⇥');
    expect(
      Object.values({ ...files, connection: range.body })
        .map(visible)
        .join('\n'),
    ).toMatchInlineSnapshot(`
      "[BOM]日時,種別,ステータスコード,詳細␍
      2026/07/14 23:59:59,センサー,12,'=quoted␍
      2026/07/09 23:59:59,センサー,7,"line1␍
      line2"␍
      2026/07/04 23:59:59,センサー,2,'⇥x␍
      2026/03/21 16:30:00,センサー,11, =not first␍
      2026/03/16 16:30:00,センサー,6,"say ""hi"""␍
      2026/03/11 16:30:00,センサー,1,'@SUM(A1)␍
      2026/01/27 00:00:00,センサー,9,日本語の詳細、「引用」␍
      2026/01/25 23:59:59,センサー,8,back\\slash \\N \\t␍
      2026/01/22 00:00:00,センサー,4,"'
      =1"␍
      2026/01/20 23:59:59,センサー,3,"'␍=1"␍
      2026/01/17 00:00:00,センサー,-1,'+81␍
      2026/01/15 23:59:59,センサー,-2,'=1+1␍
      2000/01/13 00:00:00,センサー,10,␍
      2000/01/08 00:00:00,センサー,5,"a,b"␍
      2000/01/03 00:00:00,センサー,0,'-1␍

      [BOM]日時,走行状態,エンジン始動,指示,指示番号,指示者␍
      2026/07/14 23:59:59,'=quoted,,,,'=quoted␍
      2026/07/09 23:59:59,"line1␍
      line2",禁止中,エンジン始動禁止,1009,"line1␍
      line2"␍
      2026/07/04 23:59:59,'⇥x,,,,'⇥x␍
      2026/03/21 16:30:00, =not first,禁止中,,, =not first␍
      2026/03/16 16:30:00,"say ""hi""",,,,"say ""hi"""␍
      2026/03/11 16:30:00,'@SUM(A1),禁止中,エンジン始動禁止,1003,'@SUM(A1)␍
      2026/01/30 23:59:59,,禁止中,エンジン始動禁止,1015,␍
      2026/01/27 00:00:00,日本語の詳細、「引用」,禁止中,,,日本語の詳細、「引用」␍
      2026/01/25 23:59:59,back\\slash \\N \\t,,,,back\\slash \\N \\t␍
      2026/01/22 00:00:00,"'
      =1",,エンジン始動許可,1006,"'
      =1"␍
      2026/01/20 23:59:59,"'␍=1",禁止中,,,"'␍=1"␍
      2026/01/17 00:00:00,'+81,禁止中,,,'+81␍
      2026/01/15 23:59:59,'=1+1,,エンジン始動許可,1000,'=1+1␍
      2000/01/13 00:00:00,,,エンジン始動許可,1012,␍
      2000/01/08 00:00:00,"a,b",禁止中,,,"a,b"␍
      2000/01/03 00:00:00,'-1,,,,'-1␍

      [BOM]日時,緯度,経度,速度 (km/h),方位 (°),衛星数,精度 (m),住所␍
      2026/07/09 23:59:59,-2.5e-7,-2.5e-7,-2.5e-7,-2.5e-7,4,-2.5e-7,␍
      2026/07/04 23:59:59,0.0001,0.0001,0.0001,0.0001,,0.0001,␍
      2026/03/21 16:30:00,0,0,,,8,,␍
      2026/03/16 16:30:00,123456789.123,123456789.123,123456790,123456790,,123456790,␍
      2026/03/11 16:30:00,0.000015,0.000015,0.000015,0.000015,-2,0.000015,␍
      2026/01/27 00:00:00,0,,,0,6,,␍
      2026/01/25 23:59:59,0,,,0,5,,␍
      2026/01/22 00:00:00,1000000000000000,1000000000000000,1000000000000000,1000000000000000,1,1000000000000000,␍
      2026/01/20 23:59:59,1000000,1000000,1000000,1000000,0,1000000,␍
      2026/01/17 00:00:00,0,0,0,0,-4,0,␍
      2026/01/15 23:59:59,35.681236,35.681236,35.681236,35.681236,,35.681236,␍
      2000/01/13 00:00:00,0,,,0,,,␍
      2000/01/08 00:00:00,1e+21,1e+21,1e+21,1e+21,2,1e+21,␍
      2000/01/03 00:00:00,1e-7,1e-7,1e-7,1e-7,-3,1e-7,␍

      [BOM]日時,電圧 (V),残量 (%)␍
      2026/07/09 23:59:59,-2.5e-7,-2.5e-7␍
      2026/07/04 23:59:59,0.0001,0.0001␍
      2026/03/21 16:30:00,,␍
      2026/03/16 16:30:00,123456790,123456790␍
      2026/03/11 16:30:00,0.000015,0.000015␍
      2026/01/27 00:00:00,,0␍
      2026/01/25 23:59:59,,0␍
      2026/01/22 00:00:00,1000000000000000,1000000000000000␍
      2026/01/20 23:59:59,1000000,1000000␍
      2026/01/17 00:00:00,0,0␍
      2026/01/15 23:59:59,35.681236,35.681236␍
      2000/01/13 00:00:00,,0␍
      2000/01/08 00:00:00,1e+21,1e+21␍
      2000/01/03 00:00:00,1e-7,1e-7␍

      [BOM]日時,接続状態␍
      2030/01/01 09:08:00,切断␍
      2030/01/01 09:07:00,切断␍
      2030/01/01 09:06:00,切断␍
      2030/01/01 09:05:00,切断␍
      2030/01/01 09:04:00,切断␍
      2030/01/01 09:03:00,切断␍
      "
    `);
  });

  it.runIf(inject('databaseUrl'))('on PostgreSQL, COPY writes what the row path writes', async () => {
    const ctx = { db: t.db } as AppContext;
    const read = async (s: Readable) =>
      Buffer.concat((await s.toArray()).map((c: Buffer | string) => Buffer.from(c))).toString();
    const range = { car_data_id: imei, from: null, to: null };
    for (const kind of ['error', 'engine', 'gps', 'battery', 'connection'] as const) {
      const viaRows = await read(
        rowPathCsv(
          ctx,
          kind,
          range,
          (await findLogBatch(t.db, kind, range, null, EXPORT_BATCH)) as Record<string, unknown>[],
        ),
      );
      expect(await read(await copyPathCsv(ctx, kind, range))).toBe(viaRows);
    }
  });

  it.runIf(inject('databaseUrl'))(
    'a cancelled download gives its COPY connection back to the pool, ready for the next query',
    async () => {
      await sql`INSERT INTO connection_logs (car_data_id, recorded_at, state)
      SELECT ${imei}, timestamptz '2031-01-01T00:00:00Z' + make_interval(secs => i), 'connected' FROM generate_series(1, 20000) AS i`.execute(
        t.db,
      );
      const ctx = { db: t.db } as AppContext;
      const range = { car_data_id: imei, from: '2031-01-01T00:00:00Z', to: '2031-12-31T00:00:00Z' };
      // More cancelled downloads than the test pool has connections (4): a connection kept would make the next wait and fail.
      for (let i = 0; i < 6; i++) {
        const csv = await copyPathCsv(ctx, 'connection', range);
        await new Promise((ok) => csv.once('data', ok));
        csv.destroy();
      }
      const res = await exported('connection', { from: range.from, to: range.to });
      expect(res.body.split('\r\n').filter(Boolean)).toHaveLength(20_001);
    },
  );
});

/**
 * PGlite runs in the server's process: an export must leave room for other calls between its
 * reads, and one account runs one export at a time (docs/telemetry.md).
 */
describe('a big export shares the database', () => {
  const range = { kind: 'gps', car_data_id: terminalA.imei, from: '2032-01-01T00:00:00Z', to: '2032-12-31T00:00:00Z' };
  const open = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: exportUrl(range),
      headers: { authorization: `Bearer ${token}` },
      payloadAsStream: true,
    });

  beforeAll(async () => {
    // 60,000 points (about 4 MB of CSV, 120 reads), written straight to the table.
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
      SELECT ${terminalA.imei}, timestamptz '2032-01-01T00:00:00Z' + make_interval(secs => i * 5), 35.6 + i / 1e7, 139.7, 30.5, 90
      FROM generate_series(1, 60000) AS i`.execute(t.db);
  }, 120_000);

  it('answers a cheap call while a big export is still streaming', async () => {
    const events: string[] = [];
    const big = await open(tokenA);
    expect(big.statusCode).toBe(200);
    const chunks = big.stream()[Symbol.asyncIterator]();
    let bytes = ((await chunks.next()).value as Buffer).length;
    const cheap = t.call(me, {}, 'adminB').then((r) => events.push(`cheap call ${r.status}`));
    const rest = (async () => {
      for (let c = await chunks.next(); !c.done; c = await chunks.next()) bytes += (c.value as Buffer).length;
      events.push('export ended');
    })();
    await Promise.all([cheap, rest]);
    expect(events).toEqual(['cheap call 200', 'export ended']);
    expect(bytes).toBeGreaterThan(2_500_000);
  }, 120_000);

  it('runs one export per account at a time: a second one meanwhile is a 429 in Japanese', async () => {
    const first = await open(tokenA);
    expect(first.statusCode).toBe(200);
    const second = await get(range, tokenA);
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: telemetryMessages.exportBusy });
    // Another account is not held up by it.
    const other = await t.app.inject({
      method: 'GET',
      url: exportUrl({ ...range, kind: 'obd2', from: '', to: '' }),
      headers: { authorization: `Bearer ${tokenA2}` },
    });
    expect(other.statusCode).toBe(200);
    await first.stream().toArray();
    expect((await get({ ...range, kind: 'obd2', from: '', to: '' }, tokenA)).statusCode).toBe(200);
  }, 120_000);
});
