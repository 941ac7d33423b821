import { DEVICE_BATCH_PATH } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createTestApp, fleet, seedFixtures, type TestApp } from './helper.js';
import { dispatcherFor, subscribe } from './notify-support.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';

/**
 * The terminal protocol end to end: what a terminal reports reaches the
 * notification rules, over HTTP only (no gateway internals).
 */
let t: TestApp;
let smtp: SmtpReceiver;
beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startSmtpReceiver()]);
  await seedFixtures(t.db);
  await subscribe(t.db, accounts.staffA.account_id, { connect_error: null, sensor_error: null });
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

const sendBatch = (seq: number, records: object[]) =>
  t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    headers: { authorization: `Basic ${Buffer.from(`${fleet.A.car_device_id}:terminal-secret`).toString('base64')}` },
    payload: { seq, records },
  });

describe('device gateway → notifications', () => {
  it('mails about a reported disconnect once, and a retried batch queues nothing more', async () => {
    const time = new Date(Date.now() - 60_000).toISOString();
    const records = [
      { type: 'gps', time, lat: 35.68, lng: 139.76, speed: 0 },
      { type: 'connection', time, state: 'disconnected' },
    ];
    const first = await sendBatch(1, records);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ accepted: 2, duplicate: false });
    expect((await sendBatch(1, records)).json()).toMatchObject({ duplicate: true });

    const events = await t.db.selectFrom('notification_events').select(['account_id', 'car_id', 'item']).execute();
    expect(events).toEqual([{ account_id: accounts.staffA.account_id, car_id: fleet.A.car_id, item: 'connect_error' }]);

    const dispatcher = dispatcherFor(t.db, smtp.url, () => new Date());
    await dispatcher.runOnce();
    await dispatcher.stop();
    expect(smtp.mails.map((m) => m.to)).toEqual([[accounts.staffA.email]]);
    expect(smtp.mails[0]!.text).toContain('https://www.google.com/maps?q=35.680000,139.760000');
  });

  it('keeps the motion state the sweep reads', async () => {
    const time = new Date(Date.now() - 30_000).toISOString();
    await sendBatch(2, [{ type: 'engine', time, running: 'on' }]);
    const motion = await t.db
      .selectFrom('vehicle_motion')
      .selectAll()
      .where('car_data_id', '=', fleet.A.car_data_id)
      .executeTakeFirstOrThrow();
    expect(motion.engine_running).toBe('on');
    expect(motion.idle_since).not.toBeNull();
  });
});
