import {
  DEVICE_BATCH_PATH,
  carGetEngineLog,
  carGetGpsLog,
  carList,
  carReserveCmd,
  companyAdd,
  deviceProtocolMessages,
  login,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleet, outcomeOf } from '../helper.js';
import { at, basic, count, reply } from '../telemetry-support.js';
import { checksum, createWorld, expectErrorShape, type World } from './world.js';

/**
 * Regressions the property tests found: input PostgreSQL cannot store (U+0000,
 * lone surrogates in jsonb, numbers that underflow a real column, years it
 * cannot read, zone offsets past ±15:59)
 * and nesting too deep for JSON.stringify each made a 500. A console call now
 * answers 400; a terminal's batch keeps its good records and names the bad ones.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w?.t.close());

/** JSON nested `levels` objects deep, as text: the test client could not stringify it as an object. */
const deep = (levels: number) => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;
const raw = (json: string) => ({ __raw: json });
/** The payload as JSON text, with raw(...) parts spliced in unquoted. */
const payload = (v: unknown) =>
  JSON.stringify(v).replace(/\{"__raw":"((?:[^"\\]|\\.)*)"\}/g, (_m, s: string) => JSON.parse(`"${s}"`) as string);

describe('console calls', () => {
  it.each([
    [
      'U+0000 in a text field',
      companyAdd,
      { info: { company_id: 'nul-co', company_name: '会社\u0000名' } },
      'info.company_name',
    ],
    ['U+0000 in a search', carList, { search_text: 'a\u0000' }, 'search_text'],
    ['U+0000 in a key', carList, { ['x\u0000']: 1 }, 'x\ufffd'],
    [
      'a lone surrogate bound for jsonb',
      carReserveCmd,
      { car_data_id: fleet.A.car_data_id, cmd_type: 'req_car_setting_update', cmd_info: { settings: { a: '\ud800' } } },
      'cmd_info.settings.a',
    ],
    [
      'nesting 100 000 levels deep',
      carReserveCmd,
      {
        car_data_id: fleet.A.car_data_id,
        cmd_type: 'req_car_setting_update',
        cmd_info: { settings: raw(deep(100_000)) },
      },
      undefined,
    ],
    [
      'a date bound in year 0',
      carGetGpsLog,
      { car_data_id: fleet.A.car_data_id, from: '0000-01-01', to: '2026-01-01' },
      'from',
    ],
    [
      'a date bound before year 1 in UTC',
      carGetEngineLog,
      { car_data_id: fleet.A.car_data_id, from: '0001-01-01 00:00', to: '2026-01-01' },
      'from',
    ],
  ])('%s is a 400 with the error shape, and nothing is stored', async (_label, call, body, field) => {
    const before = await checksum(w.db);
    const res = await w.app.inject({
      method: 'POST',
      url: call.path,
      payload: payload(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${w.tokens.superAdmin}` },
    });
    expect(res.statusCode, res.body).toBe(400);
    expectErrorShape(res);
    if (field) expect(Object.keys(outcomeOf(call, res).error.errors ?? {})).toContain(field);
    expect(await checksum(w.db)).toEqual(before);
  });
});

describe('the device gateway', () => {
  let seq = 1000;
  const send = (records: unknown[]) =>
    w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: payload({ seq: ++seq, records }),
      headers: { 'content-type': 'application/json', authorization: basic(fleet.A.car_device_id) },
    });

  it.each([
    [
      'U+0000 in a text',
      { type: 'error', time: at(1), error_type: 'gps', status_code: 0, detail: 'x\u0000' },
      deviceProtocolMessages.unstorable,
    ],
    [
      'U+0000 in an object',
      { type: 'sensor', time: at(1), readings: { a: 'x\u0000' } },
      deviceProtocolMessages.unstorable,
    ],
    ['a lone surrogate', { type: 'obd2', time: at(1), pids: { ['\udc00']: 1 } }, deviceProtocolMessages.unstorable],
    [
      'a number a real column cannot hold (1e-300)',
      { type: 'battery', time: at(1), percentage: 1e-300 },
      deviceProtocolMessages.unstorable,
    ],
    // Deeper than MAX_INPUT_DEPTH (32) but within a readable document (64); deeper bodies are a 400 (gateway-abuse.test.ts).
    ['deep nesting (40 levels)', { type: 'obd2', time: at(1), pids: raw(deep(40)) }, deviceProtocolMessages.unstorable],
    ['year 0', { type: 'gps', time: '0000-01-01T00:00:00Z', lat: 1, lng: 1 }, deviceProtocolMessages.pastTime],
    [
      'a time before 1970',
      { type: 'gps', time: '1969-12-31T23:59:59Z', lat: 1, lng: 1 },
      deviceProtocolMessages.pastTime,
    ],
  ])('refuses the record with %s and stores the rest of the batch', async (_label, bad, reason) => {
    const before = await count(w.db, 'gps_logs', fleet.A.car_data_id);
    const res = await send([bad, { type: 'gps', time: at(2), lat: 35.5, lng: 139.5 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(reply(res)).toMatchObject({ accepted: 1, rejected: [{ index: 0 }] });
    expect(reply(res).rejected[0]!.reason).toContain(reason);
    expect(await count(w.db, 'gps_logs', fleet.A.car_data_id)).toBe(before + 1);
  });

  it('stores bytes that encode a lone surrogate as U+FFFD: a body read as UTF-8 never holds one', async () => {
    // A batch without a \u escape has its strings taken as storable (json-body.ts bodyWithoutEscapes).
    const text = (detail: string) =>
      `{"seq":${++seq},"records":[{"type":"error","time":"${at(3)}","error_type":"gps","status_code":0,"detail":"${detail}"}]}`;
    const [head, tail] = text('\0').split('\0') as [string, string];
    const res = await w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: Buffer.concat([Buffer.from(head), Buffer.from([0x78, 0xed, 0xa0, 0x80]), Buffer.from(tail)]),
      headers: { 'content-type': 'application/json', authorization: basic(fleet.A.car_device_id) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(reply(res)).toMatchObject({ accepted: 1, rejected: [] });
    const row = await w.db
      .selectFrom('error_logs')
      .select('detail')
      .where('car_data_id', '=', fleet.A.car_data_id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.detail).toBe('x\ufffd\ufffd\ufffd');
  });

  it.each(['device\u0000a', 'device-a\u0000', '\ud800', 'id with spaces', 'x'.repeat(65)])(
    'answers 401 to a terminal id %j, never a 500',
    async (id) => {
      const authorization = `Basic ${Buffer.from(`${id}:terminal-secret`).toString('base64')}`;
      const res = await w.app.inject({
        method: 'POST',
        url: DEVICE_BATCH_PATH,
        payload: { seq: 1, records: [] },
        headers: { authorization },
      });
      expect(res.statusCode).toBe(401);
      expectErrorShape(res);
    },
  );

  it('stores a time with a zone offset PostgreSQL would refuse (+23:59) as the same instant in UTC', async () => {
    const res = await send([{ type: 'gps', time: '2026-01-15T23:59:00+23:59', lat: 35.25, lng: 139.25 }]);
    expect(reply(res)).toMatchObject({ accepted: 1, rejected: [] });
    const row = await w.db
      .selectFrom('gps_logs')
      .select('recorded_at')
      .where('lat', '=', 35.25)
      .executeTakeFirstOrThrow();
    expect(new Date(row.recorded_at).toISOString()).toBe('2026-01-15T00:00:00.000Z');
  });
});

describe('what is not JSON, or too much of it', () => {
  it.each([
    ['a body over 1 MiB', carList.path, 'application/json', `{"search_text":"${'x'.repeat(1024 * 1024)}"}`, 413],
    [
      'a batch over 4 MiB',
      DEVICE_BATCH_PATH,
      'application/json',
      `{"seq":1,"records":["${'x'.repeat(4 * 1024 * 1024)}"]}`,
      413,
    ],
    ['plain text (read as a string, not an object)', carList.path, 'text/plain', '{}', 400],
    ['XML', carList.path, 'application/xml', '<a/>', 415],
    ['a form', login.path, 'application/x-www-form-urlencoded', 'username=a&password=b', 415],
    ['broken JSON', carList.path, 'application/json', '{"search_text":', 400],
    ['a prototype-polluting body', carList.path, 'application/json', '{"__proto__":{"isAdmin":true}}', 400],
    [
      'a prototype-polluting body, escaped',
      carList.path,
      'application/json',
      '{"\\u005f_proto__":{"isAdmin":true}}',
      400,
    ],
    [
      'a prototype-polluting batch',
      DEVICE_BATCH_PATH,
      'application/json',
      '{"seq":1,"records":[],"__proto__":{"x":1}}',
      400,
    ],
  ])('%s is refused with the error shape', async (_label, url, contentType, payload, status) => {
    const authorization = url === DEVICE_BATCH_PATH ? basic(fleet.A.car_device_id) : `Bearer ${w.tokens.superAdmin}`;
    const res = await w.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType, authorization },
    });
    expect(res.statusCode, res.body).toBe(status);
    expectErrorShape(res);
  });
});
