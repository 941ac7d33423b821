import type { DeviceRecord } from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { evaluateBatch } from '../src/notify/evaluate-batch.js';
import { runSweep } from '../src/notify/sweep.js';
import { accounts, createTestApp, fleet, seedFixtures, type TestApp } from './helper.js';
import {
  DAY,
  dispatcherFor,
  iso,
  MINUTE,
  PUBLIC_URL,
  rec,
  resetNotifyState,
  setLatestState,
  subscribe,
  testClock,
} from './notify-support.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';

let t: TestApp;
let smtp: SmtpReceiver;
const clock = testClock();
const A: string = fleet.A.car_data_id;
const B: string = fleet.B.car_data_id;

beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startSmtpReceiver()]);
  await seedFixtures(t.db);
  await t.db
    .updateTable('cars')
    .set({ car_number: '品川 300 あ 12-34' })
    .where('car_id', '=', fleet.A.car_id)
    .execute();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  await resetNotifyState(t.db);
  smtp.mails.length = 0;
  clock.set('2026-12-01T03:00:00Z');
});

const evaluate = (records: DeviceRecord[], imei = A) =>
  evaluateBatch(t.db, imei, records, { publicUrl: PUBLIC_URL, clock: clock.now });
const sweep = () => runSweep(t.db, { publicUrl: PUBLIC_URL, clock: clock.now });
/** Sends what the outbox holds to the SMTP receiver and answers what arrived since the last call. */
let seen = 0;
beforeEach(() => {
  seen = 0;
});
async function delivered() {
  const d = dispatcherFor(t.db, smtp.url, clock.now);
  await d.runOnce();
  await d.stop();
  const fresh = smtp.mails.slice(seen);
  seen = smtp.mails.length;
  return fresh;
}
const staff = accounts.staffA;
/** The item label of a notification subject: 【車両通知】<label>：... */
const itemOf = (subject: string) => subject.slice(6).split('：')[0];
const now = (plusMs = 0) => iso(clock.now(), plusMs);
const sensorError = (status: number, at = now()) =>
  rec({ type: 'error', time: at, error_type: 'sensor', status_code: status, detail: '加速度センサー応答なし' });

describe('telemetry items', () => {
  it('sensor_error: a sensor error with a non-zero status, not status 0 nor another error type', async () => {
    await subscribe(t.db, staff.account_id, { sensor_error: null });
    await evaluate([
      sensorError(0),
      rec({ type: 'error', time: now(), error_type: 'obd2', status_code: 1002 }),
      rec({ type: 'error', time: now(), error_type: 'gps', status_code: 1000 }),
    ]);
    expect(await delivered()).toEqual([]);

    expect(await evaluate([sensorError(1001)])).toBe(1);
    const [mail] = await delivered();
    expect(mail!.to).toEqual([staff.email]);
    expect(mail!.subject).toBe('【車両通知】センサーエラー：品川 300 あ 12-34（車両ID: car-a）');
    expect(mail!.text).toContain(
      '内容：センサーエラーを受信しました（状態コード 1001: 起動エラー、加速度センサー応答なし）',
    );
  });

  it('obd2_error: an OBD2 error with a non-zero status, not status 0 nor a sensor error', async () => {
    await subscribe(t.db, staff.account_id, { obd2_error: null });
    await evaluate([rec({ type: 'error', time: now(), error_type: 'obd2', status_code: 0 }), sensorError(1001)]);
    expect(await delivered()).toEqual([]);
    await evaluate([rec({ type: 'error', time: now(), error_type: 'obd2', status_code: 1002 })]);
    const mails = await delivered();
    expect(mails.map((m) => m.subject)).toEqual(['【車両通知】OBD2エラー：品川 300 あ 12-34（車両ID: car-a）']);
    expect(mails[0]!.text).toContain('状態コード 1002: データ取得失敗');
  });

  it('vibration: a value over the account’s threshold, not one at or under it', async () => {
    await subscribe(t.db, staff.account_id, { vibration: 2 });
    await evaluate([
      rec({ type: 'sensor', time: now(), vibration: 1.5 }),
      rec({ type: 'sensor', time: now(1000), vibration: 2 }),
      rec({ type: 'sensor', time: now(2000) }),
    ]);
    expect(await delivered()).toEqual([]);
    await evaluate([rec({ type: 'sensor', time: now(), vibration: 2.6 })]);
    const mails = await delivered();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('しきい値（2G）を超える振動（2.6G）を検知しました');
  });

  it('vibration: each account is judged by its own threshold', async () => {
    await subscribe(t.db, staff.account_id, { vibration: 5 });
    await subscribe(t.db, accounts.managerA.account_id, { vibration: 1 });
    await evaluate([rec({ type: 'sensor', time: now(), vibration: 3 })]);
    expect((await delivered()).map((m) => m.to[0])).toEqual([accounts.managerA.email]);
  });

  it('warn_area: leaving the available area or entering a forbidden one, not moving inside the available area', async () => {
    await subscribe(t.db, staff.account_id, { warn_area: null });
    await t.db
      .updateTable('cars')
      .set({ lat_min: 35.6, lat_max: 35.7, lng_min: 139.7, lng_max: 139.8 })
      .where('car_id', '=', fleet.A.car_id)
      .execute();
    await t.db
      .insertInto('areas')
      .values({
        car_id: fleet.A.car_id,
        kind: 'disable',
        lat_min: 35.66,
        lat_max: 35.67,
        lng_min: 139.76,
        lng_max: 139.77,
      })
      .execute();

    await evaluate([rec({ type: 'gps', time: now(), lat: 35.65, lng: 139.72, speed: 30 })]);
    expect(await delivered()).toEqual([]);

    await evaluate([rec({ type: 'gps', time: now(), lat: 36.0, lng: 140.2, speed: 30 })]);
    let mails = await delivered();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('エリア警告');
    expect(mails[0]!.text).toContain('利用可能エリアの外に出ました');
    expect(mails[0]!.text).toContain('https://www.google.com/maps?q=36.000000,140.200000');

    clock.advance(2 * 60 * MINUTE);
    await evaluate([rec({ type: 'gps', time: now(), lat: 35.661, lng: 139.761, speed: 10 })]);
    mails = await delivered();
    expect(mails.map((m) => m.text.includes('禁止エリアに入りました'))).toEqual([true]);
  });

  it('warn_area: also judges the available_areas rows, and a vehicle without any area never warns', async () => {
    await subscribe(t.db, staff.account_id, { warn_area: null });
    await evaluate([rec({ type: 'gps', time: now(), lat: 10, lng: 10 })]);
    expect(await delivered()).toEqual([]);

    await t.db
      .insertInto('areas')
      .values({
        car_id: fleet.A.car_id,
        kind: 'available',
        lat_min: 35.6,
        lat_max: 35.7,
        lng_min: 139.7,
        lng_max: 139.8,
      })
      .execute();
    await evaluate([rec({ type: 'gps', time: now(), lat: 35.65, lng: 139.75 })]);
    expect(await delivered()).toEqual([]);
    await evaluate([rec({ type: 'gps', time: now(), lat: 10, lng: 10 })]);
    expect(await delivered()).toHaveLength(1);
  });

  it('connect_error: a disconnect, not a connect', async () => {
    await subscribe(t.db, staff.account_id, { connect_error: null });
    await evaluate([rec({ type: 'connection', time: now(), state: 'connected' })]);
    expect(await delivered()).toEqual([]);
    await evaluate([rec({ type: 'connection', time: now(), state: 'disconnected' })]);
    const mails = await delivered();
    expect(mails.map((m) => m.subject)).toEqual(['【車両通知】接続エラー：品川 300 あ 12-34（車両ID: car-a）']);
    expect(mails[0]!.text).toContain('端末の接続が切断されました');
  });

  it('stays silent about items the account has not switched on', async () => {
    await subscribe(t.db, staff.account_id, { obd2_error: null });
    await evaluate([
      sensorError(1001),
      rec({ type: 'connection', time: now(), state: 'disconnected' }),
      rec({ type: 'sensor', time: now(), vibration: 99 }),
    ]);
    expect(await delivered()).toEqual([]);
  });
});

describe('time-based items (the sweep)', () => {
  it('device_lost: no report for param minutes, once per silence', async () => {
    await subscribe(t.db, staff.account_id, { device_lost: 60 });
    await setLatestState(t.db, A, {
      last_seen_at: new Date(clock.now().getTime() - 59 * MINUTE),
      lat: 35.68,
      lng: 139.76,
    });
    await sweep();
    expect(await delivered()).toEqual([]);

    clock.advance(2 * MINUTE);
    expect(await sweep()).toBe(1);
    const [mail] = await delivered();
    expect(mail!.subject).toBe('【車両通知】端末通信途絶：品川 300 あ 12-34（車両ID: car-a）');
    expect(mail!.text).toContain('端末から1時間1分データが届いていません（最終受信 2026/12/01 11:01、設定 60分）');

    // Still silent hours later: the same silence is not reported again.
    clock.advance(5 * 60 * MINUTE);
    expect(await sweep()).toBe(0);

    // It reports, then falls silent again: a new silence, a new mail.
    await setLatestState(t.db, A, { last_seen_at: clock.now() });
    clock.advance(61 * MINUTE);
    expect(await sweep()).toBe(1);
    expect(await delivered()).toHaveLength(1);
  });

  it('device_lost: a terminal that never reported is not "lost"', async () => {
    await subscribe(t.db, staff.account_id, { device_lost: 5 });
    clock.advance(30 * DAY);
    expect(await sweep()).toBe(0);
  });

  it('car_negrected: not moved for param days; GPS drift while parked is not movement', async () => {
    await subscribe(t.db, staff.account_id, { car_negrected: 3 });
    const parkedAt = clock.now();
    await evaluate([rec({ type: 'gps', time: now(), lat: 35.68, lng: 139.76, speed: 40 })]);
    for (let d = 1; d <= 2; d++) {
      clock.set(new Date(parkedAt.getTime() + d * DAY));
      // ~30 m of drift at standstill
      await evaluate([rec({ type: 'gps', time: now(), lat: 35.68 + 0.0003 * d, lng: 139.76, speed: 0 })]);
    }
    clock.set(new Date(parkedAt.getTime() + 3 * DAY - MINUTE));
    expect(await sweep()).toBe(0);
    clock.set(new Date(parkedAt.getTime() + 3 * DAY));
    expect(await sweep()).toBe(1);
    const [mail] = await delivered();
    expect(mail!.subject).toContain('車両放置');
    expect(mail!.text).toContain('車両が3日移動していません（最後の移動 2026/12/01 12:00、設定 3日）');
    expect(mail!.text).toContain('https://www.google.com/maps?q=35.680000,139.760000');

    clock.advance(2 * DAY);
    expect(await sweep()).toBe(0);
  });

  it('car_negrected: a vehicle that moved within param days is not neglected', async () => {
    await subscribe(t.db, staff.account_id, { car_negrected: 3 });
    await evaluate([rec({ type: 'gps', time: now(), lat: 35.68, lng: 139.76, speed: 0 })]);
    clock.advance(2 * DAY);
    // 0.01° of latitude is about 1.1 km: it moved, even without a speed.
    await evaluate([rec({ type: 'gps', time: now(), lat: 35.69, lng: 139.76 })]);
    clock.advance(2 * DAY);
    expect(await sweep()).toBe(0);
  });

  it('stop_time_over: standing with the engine on for param minutes, not while driving or with the engine off', async () => {
    await subscribe(t.db, staff.account_id, { stop_time_over: 30 });
    const start = clock.now();
    await evaluate([
      rec({ type: 'engine', time: now(), running: 'on' }),
      rec({ type: 'gps', time: now(MINUTE), lat: 35.68, lng: 139.76, speed: 0 }),
    ]);
    clock.advance(29 * MINUTE);
    await setLatestState(t.db, A, { last_seen_at: clock.now(), lat: 35.68, lng: 139.76 });
    expect(await sweep()).toBe(0);
    clock.advance(2 * MINUTE);
    await setLatestState(t.db, A, { last_seen_at: clock.now(), lat: 35.68, lng: 139.76 });
    expect(await sweep()).toBe(1);
    const [mail] = await delivered();
    expect(mail!.subject).toContain('停車時間超過');
    expect(mail!.text).toContain(`エンジンがかかったまま31分停車しています（停車開始 2026/12/01 12:00、設定 30分）`);

    // Drives off, then parks with the engine off: no new mail however long it stands.
    await evaluate([
      rec({ type: 'gps', time: now(), lat: 35.7, lng: 139.8, speed: 45 }),
      rec({ type: 'engine', time: now(MINUTE), running: 'off' }),
    ]);
    clock.set(new Date(start.getTime() + 5 * 60 * MINUTE));
    await setLatestState(t.db, A, { last_seen_at: clock.now() });
    expect(await sweep()).toBe(0);
  });

  it('stop_time_over: a vehicle that keeps driving with the engine on is not standing', async () => {
    await subscribe(t.db, staff.account_id, { stop_time_over: 30 });
    await evaluate([rec({ type: 'engine', time: now(), running: 'on' })]);
    for (let m = 5; m <= 60; m += 5) {
      await evaluate([rec({ type: 'gps', time: now(m * MINUTE), lat: 35.6 + m * 0.001, lng: 139.7, speed: 40 })]);
    }
    clock.advance(61 * MINUTE);
    await setLatestState(t.db, A, { last_seen_at: clock.now() });
    expect(await sweep()).toBe(0);
  });
});

describe('who hears about what', () => {
  it('tells only accounts that may see the vehicle: its company and the super admin', async () => {
    for (const who of [accounts.staffA, accounts.adminB, accounts.superAdmin])
      await subscribe(t.db, who.account_id, { sensor_error: null });
    await evaluate([sensorError(1001)], A);
    expect((await delivered()).map((m) => m.to[0]).sort()).toEqual(
      [accounts.staffA.email, accounts.superAdmin.email].sort(),
    );
    await evaluate([sensorError(1001)], B);
    expect((await delivered()).map((m) => m.to[0]).sort()).toEqual(
      [accounts.adminB.email, accounts.superAdmin.email].sort(),
    );
  });

  it('applies the company scope to the sweep too', async () => {
    await subscribe(t.db, accounts.adminB.account_id, { device_lost: 5 });
    await setLatestState(t.db, A, { last_seen_at: clock.now() });
    clock.advance(DAY);
    expect(await sweep()).toBe(0);
  });

  it('sends to the address of the settings when one is given, and nothing to a deleted account', async () => {
    await subscribe(t.db, staff.account_id, { connect_error: null }, 'alerts@example.jp');
    await subscribe(t.db, accounts.managerA.account_id, { connect_error: null });
    await t.db
      .updateTable('accounts')
      .set({ is_delete: true })
      .where('account_id', '=', accounts.managerA.account_id)
      .execute();
    try {
      await evaluate([rec({ type: 'connection', time: now(), state: 'disconnected' })]);
      expect((await delivered()).map((m) => m.to)).toEqual([['alerts@example.jp']]);
    } finally {
      await t.db
        .updateTable('accounts')
        .set({ is_delete: false })
        .where('account_id', '=', accounts.managerA.account_id)
        .execute();
    }
  });

  it('sends at most one mail per account, vehicle and item within the 60-minute cooldown', async () => {
    await subscribe(t.db, staff.account_id, { sensor_error: null, connect_error: null });
    expect(await evaluate([sensorError(1001), sensorError(1002, now(1000))])).toBe(1);
    clock.advance(30 * MINUTE);
    expect(await evaluate([sensorError(1001)])).toBe(0);
    // Another item of the same vehicle is not held back.
    expect(await evaluate([rec({ type: 'connection', time: now(), state: 'disconnected' })])).toBe(1);
    clock.advance(29 * MINUTE);
    expect(await evaluate([sensorError(1001)])).toBe(0);
    clock.advance(MINUTE);
    expect(await evaluate([sensorError(1001)])).toBe(1);
    expect((await delivered()).map((m) => itemOf(m.subject))).toEqual([
      'センサーエラー',
      '接続エラー',
      'センサーエラー',
    ]);
  });

  it('writes the mail in Japanese: vehicle, what, when in Japan time, where with a map link, and the vehicle screen', async () => {
    await subscribe(t.db, staff.account_id, { sensor_error: null });
    await evaluate([
      rec({ type: 'gps', time: '2026-12-01T03:04:00Z', lat: 35.681236, lng: 139.767125, speed: 0 }),
      rec({ type: 'error', time: '2026-12-01T03:04:30Z', error_type: 'sensor', status_code: 1002 }),
    ]);
    const [mail] = await delivered();
    expect(mail!.text).toBe(
      [
        `${staff.name} 様`,
        '',
        '車両で「センサーエラー」を検知しました。',
        '',
        '車両番号：品川 300 あ 12-34',
        '車両ID：car-a',
        '内容：センサーエラーを受信しました（状態コード 1002: データ取得失敗）',
        '日時：2026/12/01 12:04（日本時間）',
        '位置：緯度 35.681236、経度 139.767125',
        '地図：https://www.google.com/maps?q=35.681236,139.767125',
        '',
        `車両の詳細：${PUBLIC_URL}/car/car_detail/car-a`,
        `通知設定の変更：${PUBLIC_URL}/notify`,
        '',
        '――――――――――――――――',
        'このメールは送信専用のアドレスから自動で送信しています。返信はできません。',
        'フリートコンソール',
      ].join('\n'),
    );
  });

  it('says the position is unknown when the terminal never sent one', async () => {
    await subscribe(t.db, staff.account_id, { sensor_error: null });
    await evaluate([sensorError(1001)]);
    expect((await delivered())[0]!.text).toContain('位置：不明（位置情報を受信していません）');
  });
});

describe('durability', () => {
  it('survives a restart: queued mail is delivered by the next dispatcher, and nothing is sent or judged twice', async () => {
    await subscribe(t.db, staff.account_id, { device_lost: 60, sensor_error: null });
    await setLatestState(t.db, A, { last_seen_at: clock.now() });
    await evaluate([sensorError(1001)]);
    clock.advance(61 * MINUTE);
    expect(await sweep()).toBe(1);
    // "Crash" before any dispatcher ran: the mails are in the outbox, and a fresh dispatcher sends them.
    expect((await delivered()).map((m) => itemOf(m.subject)).sort()).toEqual(['センサーエラー', '端末通信途絶'].sort());
    // After the restart: the sweep and a new dispatcher find nothing new.
    expect(await sweep()).toBe(0);
    expect(await delivered()).toEqual([]);
  });

  it('is one unit with the caller’s transaction: a rolled-back batch leaves no mail and no event', async () => {
    await subscribe(t.db, staff.account_id, { sensor_error: null });
    await expect(
      t.db.transaction().execute(async (trx) => {
        expect(await evaluateBatch(trx, A, [sensorError(1001)], { publicUrl: PUBLIC_URL, clock: clock.now })).toBe(1);
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toEqual([]);
    expect(await t.db.selectFrom('notification_events').select('id').execute()).toEqual([]);

    await t.db
      .transaction()
      .execute((trx) => evaluateBatch(trx, A, [sensorError(1001)], { publicUrl: PUBLIC_URL, clock: clock.now }));
    expect(await delivered()).toHaveLength(1);
  });
});
