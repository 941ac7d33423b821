import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { reserveCommand } from '../src/commands/terminal-commands.repository.js';
import { pruneBatchReceipts } from '../src/gateway/ingest.repository.js';
import { ingestBatch } from '../src/gateway/ingest.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createTestApp, seedFixtures, type TestApp } from './helper.js';
import { at, basic, count, latest, reply, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

let seq = 100;
const nextSeq = () => ++seq;

describe('POST /device/v1/batch: storing', () => {
  it('stores a good batch of every kind and updates the latest state', async () => {
    const s = nextSeq();
    const res = await sendBatch(t.app, terminalA, {
      seq: s,
      records: [
        { type: 'connection', time: at(0), state: 'connected' },
        { type: 'engine', time: at(0, 5), running: 'on', engine_line: 'connected' },
        {
          type: 'gps',
          time: at(0, 10),
          lat: 35.6812,
          lng: 139.7671,
          speed: 32.5,
          heading: 90,
          satellites: 9,
          accuracy: 4.5,
        },
        { type: 'gps', time: at(0, 15), lat: 35.6815, lng: 139.768, speed: 35, heading: 92 },
        { type: 'battery', time: at(0, 15), voltage: 14.1, percentage: 87 },
        { type: 'sensor', time: at(0, 15), vibration: 0.4, readings: { temperature_c: 24.5 } },
        { type: 'obd2', time: at(0, 15), pids: { rpm: 1800, coolant_temp: 88 } },
        { type: 'error', time: at(0, 15), error_type: 'sensor', status_code: 1002, detail: '温度センサー応答なし' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(reply(res)).toMatchObject({ seq: s, accepted: 8, rejected: [], duplicate: false, commands: [] });
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(2);
    for (const table of [
      'engine_logs',
      'connection_logs',
      'battery_logs',
      'sensor_logs',
      'obd2_logs',
      'error_logs',
    ] as const) {
      expect(await count(t.db, table, terminalA.imei), table).toBe(1);
    }
    const state = await latest(t.db, terminalA.imei);
    expect(state).toMatchObject({
      lat: 35.6815,
      lng: 139.768,
      speed: 35,
      heading: 92,
      engine_running: 'on',
      engine_line: 'connected',
      connection: 'connected',
      device_state: 1002,
      battery_voltage: 14.1,
      battery_percentage: 87,
    });
    expect(new Date(state!.recorded_at!).toISOString()).toBe(at(0, 15));
    const obd = await t.db
      .selectFrom('obd2_logs')
      .select('pids')
      .where('car_data_id', '=', terminalA.imei)
      .executeTakeFirstOrThrow();
    expect(obd.pids).toEqual({ rpm: 1800, coolant_temp: 88 });
  });

  it('stores a retried batch once and answers it with the same summary', async () => {
    const s = nextSeq();
    const body = {
      seq: s,
      records: [
        { type: 'gps', time: at(1), lat: 35.69, lng: 139.7, speed: 10 },
        { type: 'gps', time: at(1, 5), lat: 999, lng: 139.7 },
      ],
    };
    const before = await count(t.db, 'gps_logs', terminalA.imei);
    const first = reply(await sendBatch(t.app, terminalA, body));
    const again = await sendBatch(t.app, terminalA, body);
    expect(again.statusCode).toBe(200);
    expect(reply(again)).toMatchObject({ seq: s, accepted: first.accepted, rejected: first.rejected, duplicate: true });
    expect(first.accepted).toBe(1);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(before + 1);
  });

  it('stores a retry racing the original once', async () => {
    const s = nextSeq();
    const body = { seq: s, records: [{ type: 'battery', time: at(2), voltage: 12.5 }] };
    const before = await count(t.db, 'battery_logs', terminalA.imei);
    const answers = await Promise.all([sendBatch(t.app, terminalA, body), sendBatch(t.app, terminalA, body)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => reply(r).duplicate).sort()).toEqual([false, true]);
    expect(await count(t.db, 'battery_logs', terminalA.imei)).toBe(before + 1);
  });

  it('rejects a bad record with its index and a Japanese reason and keeps the others', async () => {
    const before = await count(t.db, 'gps_logs', terminalA.imei);
    const res = await sendBatch(t.app, terminalA, {
      seq: nextSeq(),
      records: [
        { type: 'gps', time: at(3), lat: 35.7, lng: 139.7 },
        { type: 'gps', time: at(3, 1), lat: 135.7, lng: 139.7 },
        { type: 'warp', time: at(3, 2) },
        { type: 'gps', time: 'yesterday', lat: 35.7, lng: 139.7 },
        { type: 'gps', time: new Date(Date.now() + 3600_000).toISOString(), lat: 35.7, lng: 139.7 },
        { type: 'gps', time: at(3, 3), lat: 35.71, lng: 139.71 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const r = reply(res);
    expect(r.accepted).toBe(2);
    expect(r.rejected.map((x) => x.index)).toEqual([1, 2, 3, 4]);
    expect(r.rejected[0]!.reason).toContain('緯度');
    expect(r.rejected[1]!.reason).toContain('type');
    expect(r.rejected[2]!.reason).toContain('time');
    expect(r.rejected[3]!.reason).toContain('サーバー時刻');
    for (const x of r.rejected) expect(x.reason).toMatch(/[ぁ-んァ-ン一-龥]/);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(before + 2);
  });

  it('refuses a malformed envelope with 400 and stores nothing', async () => {
    const batches = await count(t.db, 'device_batches', terminalA.imei);
    for (const body of [{ records: [] }, { seq: 'one', records: [] }, { seq: 1, records: 'gps' }]) {
      const res = await sendBatch(t.app, terminalA, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'バッチの形式が不正です。' });
    }
    expect(await count(t.db, 'device_batches', terminalA.imei)).toBe(batches);
  });

  it('answers wrong credentials with 401 and stores nothing', async () => {
    const before = await count(t.db, 'device_batches', terminalA.imei);
    const body = { seq: nextSeq(), records: [{ type: 'gps', time: at(4), lat: 35.7, lng: 139.7 }] };
    const wrongPassword = await sendBatch(t.app, terminalA, body, 'not-the-secret');
    const unknown = await sendBatch(t.app, { id: 'no-such-device' }, body);
    const none = await t.app.inject({ method: 'POST', url: '/device/v1/batch', payload: body });
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/device/v1/batch',
      payload: body,
      headers: { authorization: 'Bearer abc' },
    });
    for (const res of [wrongPassword, unknown, none, bearer]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: '端末IDまたはパスワードが正しくありません。' });
      expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    }
    expect(await count(t.db, 'device_batches', terminalA.imei)).toBe(before);
  });

  it('refuses a logically deleted terminal with 403 and stores nothing', async () => {
    await t.db
      .insertInto('devices')
      .values({
        car_device_id: 'device-gone',
        car_data_id: '358409100000099',
        password_hash: (
          await t.db
            .selectFrom('devices')
            .select('password_hash')
            .where('car_device_id', '=', terminalA.id)
            .executeTakeFirstOrThrow()
        ).password_hash,
        is_delete: true,
      })
      .execute();
    const res = await sendBatch(
      t.app,
      { id: 'device-gone' },
      { seq: 1, records: [{ type: 'gps', time: at(4), lat: 35.7, lng: 139.7 }] },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('この端末は利用停止されています。');
    expect(await count(t.db, 'gps_logs', '358409100000099')).toBe(0);
  });
});

describe('POST /device/v1/batch: headers', () => {
  it.each([
    ['a stored batch', () => sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] }), 200],
    ['a refused terminal', () => sendBatch(t.app, terminalA, { seq: 1, records: [] }, 'wrong-password'), 401],
  ])("answers %s with an API's security headers, not a document's", async (_label, send, status) => {
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('latest state', () => {
  it('never lets an older record overwrite a newer state, group by group', async () => {
    await sendBatch(t.app, terminalB, {
      seq: 1,
      records: [
        { type: 'gps', time: at(30), lat: 35.5, lng: 139.5, speed: 20 },
        { type: 'engine', time: at(30), running: 'on' },
        { type: 'battery', time: at(30), voltage: 13.9, percentage: 70 },
      ],
    });
    // A late batch: its GPS and engine are older than what is stored, its connection is new.
    await sendBatch(t.app, terminalB, {
      seq: 2,
      records: [
        { type: 'gps', time: at(20), lat: 35.1, lng: 139.1, speed: 50 },
        { type: 'engine', time: at(20), running: 'off' },
        { type: 'connection', time: at(20), state: 'disconnected' },
        { type: 'battery', time: at(31), percentage: 69 },
      ],
    });
    const s = await latest(t.db, terminalB.imei);
    expect(s).toMatchObject({
      lat: 35.5,
      lng: 139.5,
      speed: 20,
      engine_running: 'on',
      connection: 'disconnected',
      battery_percentage: 69,
      battery_voltage: 13.9,
    });
    expect(new Date(s!.recorded_at!).toISOString()).toBe(at(31));
    // Logs keep everything, late or not.
    expect(await count(t.db, 'gps_logs', terminalB.imei)).toBe(2);
  });

  it('an empty batch is a poll: it only touches last_seen_at', async () => {
    const before = await latest(t.db, terminalB.imei);
    const res = await sendBatch(t.app, terminalB, { seq: 3, records: [] });
    expect(reply(res)).toMatchObject({ accepted: 0, rejected: [], duplicate: false });
    const after = await latest(t.db, terminalB.imei);
    expect(after).toMatchObject({ lat: before!.lat, engine_running: before!.engine_running });
    expect(new Date(after!.last_seen_at).getTime()).toBeGreaterThanOrEqual(new Date(before!.last_seen_at).getTime());
  });
});

describe('reserved commands', () => {
  const commandRow = (id: number) =>
    t.db.selectFrom('reserved_commands').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const events = async (id: number) =>
    (
      await t.db
        .selectFrom('reserved_command_events')
        .select(['state', 'event'])
        .where('command_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((e) => `${e.state}:${e.event}`);

  it('hands a waiting command out (1 → 2) until its result comes (2 → 3), which changes the engine line and logs who ordered it', async () => {
    const id = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_by: accounts.managerA.account_id,
    });
    expect((await commandRow(id)).state).toBe(1);

    const poll = reply(await sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] }));
    expect(poll.commands).toEqual([
      expect.objectContaining({ id, cmd_idx: 0, cmd_type: 'set_engine_boot_permission', cmd_info: { cmd: 1 } }),
    ]);
    const fetched = await commandRow(id);
    expect(fetched.state).toBe(2);
    expect(fetched.fetched_at).not.toBeNull();

    // Not reported yet: the next reply repeats it.
    expect(reply(await sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] })).commands.map((c) => c.id)).toEqual(
      [id],
    );

    const res = reply(
      await sendBatch(t.app, terminalA, {
        seq: nextSeq(),
        records: [{ type: 'command_result', time: at(40), command_id: id, success: true }],
      }),
    );
    expect(res).toMatchObject({ accepted: 1, rejected: [], commands: [] });
    const done = await commandRow(id);
    expect(done.state).toBe(3);
    expect(done.result).toEqual({ success: true, detail: '' });
    expect(await events(id)).toEqual(['1:reserved', '2:fetched', '3:succeeded']);
    expect((await latest(t.db, terminalA.imei))?.engine_line).toBe('disconnected');
    const log = await t.db.selectFrom('engine_logs').selectAll().where('command_id', '=', id).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ engine_line: 'disconnected', command: 1, account_id: 'manager-a', running: null });

    // Permit again: back to connected.
    const permit = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 0 },
      created_by: accounts.adminA.account_id,
    });
    await sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] });
    await sendBatch(t.app, terminalA, {
      seq: nextSeq(),
      records: [{ type: 'command_result', time: at(41), command_id: permit, success: true }],
    });
    expect((await latest(t.db, terminalA.imei))?.engine_line).toBe('connected');
  });

  it('records a failed command as finished without changing the engine line', async () => {
    const line = (await latest(t.db, terminalA.imei))?.engine_line;
    const id = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_by: 'admin-a',
    });
    await sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] });
    const res = reply(
      await sendBatch(t.app, terminalA, {
        seq: nextSeq(),
        records: [{ type: 'command_result', time: at(42), command_id: id, success: false, detail: 'リレー応答なし' }],
      }),
    );
    expect(res.accepted).toBe(1);
    expect((await commandRow(id)).state).toBe(3);
    expect(await events(id)).toEqual(['1:reserved', '2:fetched', '3:failed']);
    expect((await latest(t.db, terminalA.imei))?.engine_line).toBe(line);
  });

  it("refuses a result for another terminal's command and leaves the command alone", async () => {
    const id = await reserveCommand(t.db, {
      car_data_id: terminalB.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_by: 'admin-b',
    });
    await sendBatch(t.app, terminalB, { seq: 10, records: [] });
    const res = await sendBatch(t.app, terminalA, {
      seq: nextSeq(),
      records: [
        { type: 'command_result', time: at(43), command_id: id, success: true },
        { type: 'gps', time: at(43), lat: 35.6, lng: 139.6 },
      ],
    });
    expect(reply(res)).toMatchObject({
      accepted: 1,
      rejected: [{ index: 0, reason: 'command_id: 指定されたコマンドはこの端末のものではありません' }],
    });
    expect((await commandRow(id)).state).toBe(2);
    expect((await latest(t.db, terminalB.imei))?.engine_line).not.toBe('disconnected');
    expect(await t.db.selectFrom('engine_logs').select('id').where('command_id', '=', id).execute()).toEqual([]);
  });

  it('refuses a second result for a finished command and a result for an unknown one', async () => {
    const id = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'req_client_update',
      cmd_info: {},
      created_by: accounts.superAdmin.account_id,
    });
    await sendBatch(t.app, terminalA, { seq: nextSeq(), records: [] });
    const res = reply(
      await sendBatch(t.app, terminalA, {
        seq: nextSeq(),
        records: [
          { type: 'command_result', time: at(44), command_id: id, success: true },
          { type: 'command_result', time: at(44), command_id: id, success: true },
          { type: 'command_result', time: at(44), command_id: 987654, success: true },
        ],
      }),
    );
    expect(res.accepted).toBe(1);
    expect(res.rejected.map((r) => r.index)).toEqual([1, 2]);
    const later = reply(
      await sendBatch(t.app, terminalA, {
        seq: nextSeq(),
        records: [{ type: 'command_result', time: at(45), command_id: id, success: true }],
      }),
    );
    expect(later.rejected).toEqual([{ index: 0, reason: 'command_id: このコマンドは結果待ちではありません' }]);
    const batch = await t.db
      .selectFrom('device_batches')
      .select(['accepted', 'rejected'])
      .where('car_data_id', '=', terminalA.imei)
      .where('seq', '=', seq)
      .executeTakeFirstOrThrow();
    expect(batch.accepted).toBe(0);
  });

  it('does not hand out a deleted or expired command', async () => {
    const gone = await reserveCommand(t.db, {
      car_data_id: terminalB.imei,
      cmd_type: 'req_car_setting_update',
      cmd_info: {},
      created_by: null,
      expires_at: new Date(Date.now() - 1000),
    });
    const r = reply(await sendBatch(t.app, terminalB, { seq: 11, records: [] }));
    expect(r.commands.map((c) => c.id)).not.toContain(gone);
    expect((await commandRow(gone)).state).toBe(1);
  });
});

describe('ingestBatch without a notification check', () => {
  it('stores a batch in one statement, and a repetition not at all', async () => {
    const device = { car_device_id: terminalB.id, car_data_id: terminalB.imei };
    const batch = {
      seq: 500,
      records: [
        { type: 'gps', time: at(50), lat: 35.3, lng: 139.3, satellites: null },
        { type: 'sensor', time: at(50), readings: { note: 'a"b' } },
        { type: 'error', time: at(50), error_type: 'gps', status_code: 0 },
        { type: 'gps', time: at(50), lat: 'north', lng: 139.3 },
      ],
    };
    const before = await count(t.db, 'gps_logs', terminalB.imei);
    const first = await ingestBatch(t.db, device, batch);
    const again = await ingestBatch(t.db, device, batch);
    expect(first.response).toMatchObject({ accepted: 3, rejected: [{ index: 3 }], duplicate: false });
    expect(first.state).toMatchObject({ car_data_id: terminalB.imei, lat: 35.3, device_state: 0 });
    expect(again.response).toMatchObject({ accepted: 3, rejected: [{ index: 3 }], duplicate: true });
    expect(again.state).toBeNull();
    expect(await count(t.db, 'gps_logs', terminalB.imei)).toBe(before + 1);
    const sensor = await t.db
      .selectFrom('sensor_logs')
      .select(['readings', 'vibration'])
      .where('car_data_id', '=', terminalB.imei)
      .executeTakeFirstOrThrow();
    expect(sensor).toEqual({ readings: { note: 'a"b' }, vibration: null });
  });
});

describe('batch receipts', () => {
  it('are forgotten after the retention period, recent ones kept', async () => {
    await t.db
      .insertInto('device_batches')
      .values([
        {
          car_data_id: 'imei-old',
          seq: 1,
          accepted: 1,
          rejected: '[]',
          received_at: new Date(Date.now() - 8 * 86_400_000),
        },
        {
          car_data_id: 'imei-old',
          seq: 2,
          accepted: 1,
          rejected: '[]',
          received_at: new Date(Date.now() - 6 * 86_400_000),
        },
      ])
      .execute();
    expect(await pruneBatchReceipts(t.db, 7, 1)).toBeGreaterThanOrEqual(1);
    const left = await t.db.selectFrom('device_batches').select('seq').where('car_data_id', '=', 'imei-old').execute();
    expect(left.map((r) => Number(r.seq))).toEqual([2]);
  });
});

describe('basic auth parsing', () => {
  it('splits id and password at the first colon, so a password may contain colons', async () => {
    await t.db
      .insertInto('devices')
      .values({
        car_device_id: 'device-colon',
        car_data_id: '358409100000077',
        password_hash: hashDeviceSecret('pass:word:1'),
      })
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/device/v1/batch',
      payload: { seq: 1, records: [] },
      headers: { authorization: basic('device-colon', 'pass:word:1') },
    });
    expect(res.statusCode).toBe(200);
  });
});
