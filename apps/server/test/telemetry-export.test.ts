import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, seedFixtures, type TestApp } from './helper.js';
import { at, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: TestApp;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  [tokenA, tokenB] = await Promise.all([login(t.app, 'managerA'), login(t.app, 'adminB')]);
  await sendBatch(t.app, terminalA, {
    seq: 1,
    records: [
      { type: 'obd2', time: at(0), pids: { rpm: 900, note: 'idle, "cold"' } },
      { type: 'obd2', time: at(1), pids: { rpm: 2100 } },
      { type: 'error', time: at(2), error_type: 'sensor', status_code: 1002, detail: '=HYPERLINK("http://evil.example","x")' },
      { type: 'error', time: at(3), error_type: 'gps', status_code: 0, detail: '+81 @home -1' },
      { type: 'gps', time: at(4), lat: 35.68, lng: 139.76, speed: 12.5, heading: 270, satellites: 8, accuracy: 3 },
    ],
  });
});
afterAll(() => t?.close());

const exportUrl = (q: Record<string, string>) => `/api/car_log_export?${new URLSearchParams(q)}`;
const get = (q: Record<string, string>, token?: string) =>
  t.app.inject({ method: 'GET', url: exportUrl(q), headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /api/car_log_export', () => {
  it('streams a CSV with a byte-order mark, a header row and objects as JSON', async () => {
    const res = await get({ kind: 'obd2', car_data_id: terminalA.imei }, tokenA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="obd2_log_${terminalA.imei}.csv"`);
    expect(res.body).toBe(
      '\uFEFFrecorded_at,pids\r\n' +
        '2026-01-15T12:00:00.000+09:00,"{""rpm"":900,""note"":""idle, \\""cold\\""""}"\r\n' +
        '2026-01-15T12:01:00.000+09:00,"{""rpm"":2100}"\r\n',
    );
  });

  it('neutralises text a spreadsheet would run as a formula', async () => {
    const res = await get({ kind: 'error', car_data_id: terminalA.imei }, tokenA);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFrecorded_at,error_type,status_code,detail');
    expect(lines[1]).toBe(`2026-01-15T12:02:00.000+09:00,sensor,1002,"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(lines[2]).toBe(`2026-01-15T12:03:00.000+09:00,gps,0,'+81 @home -1`);
  });

  it('writes numbers as numbers', async () => {
    const res = await get({ kind: 'gps', car_data_id: terminalA.imei }, tokenA);
    expect(res.body.split('\r\n')[1]).toBe('2026-01-15T12:04:00.000+09:00,35.68,139.76,12.5,270,8,3');
  });

  it('exports nothing (204, empty body) for an empty log or range', async () => {
    const empty = await get({ kind: 'battery', car_data_id: terminalA.imei }, tokenA);
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
    const outside = await get({ kind: 'obd2', car_data_id: terminalA.imei, from: '2020-01-01', to: '2020-01-02' }, tokenA);
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
    expect((await get({ kind: 'gps', car_data_id: terminalA.imei, from: '2026-01-01' }, tokenA)).json().errors).toEqual({
      to: '開始日時と終了日時の両方を入力してください',
    });
  });

  it('also answers POST with the query as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/car_log_export',
      payload: { kind: 'gps', car_data_id: terminalA.imei },
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('\uFEFFrecorded_at,lat,lng')).toBe(true);
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
    expect(states.filter((s) => s === 'connected')).toHaveLength(6173); // ...but every row comes exactly once
  });
});
