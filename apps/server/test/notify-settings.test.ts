import { defaultNotifySettings, errorMessages, notifyMessages, validationMessages as m } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/mail/outbox.repository.js';
import { MAIL_MAX_ATTEMPTS } from '../src/mail/retry-policy.js';
import { accounts, createTestApp, login, post, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
let staff: string;
let adminB: string;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  [staff, adminB] = [await login(t.app, 'staffA'), await login(t.app, 'adminB')];
});
afterAll(() => t?.close());

const me = accounts.staffA.account_id;
const fullForm = () => ({
  ...defaultNotifySettings(),
  email: 'alerts@example.jp',
  messageId: 'line-0001',
  device_lost: { enable: true, param: 30 },
  vibration: { enable: true, param: '2.5' },
  warn_area: { enable: true, param: null },
});

describe('/api/account_notify', () => {
  it('answers the defaults for an account that never saved settings: everything off, params at their defaults', async () => {
    const res = await post(t.app, '/api/account_notify', { account_id: me }, staff);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ notify: defaultNotifySettings() });
  });

  it('refuses without a session (401) and for another account (403), even to a manager or admin', async () => {
    expect((await post(t.app, '/api/account_notify', { account_id: me })).statusCode).toBe(401);
    for (const [token, other] of [
      [staff, accounts.managerA.account_id],
      [adminB, me],
      [await login(t.app, 'superAdmin'), me],
    ] as const) {
      const res = await post(t.app, '/api/account_notify', { account_id: other }, token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: notifyMessages.ownOnly });
    }
  });
});

describe('/api/account_notify_update', () => {
  it('saves one’s own settings and reads them back as saved', async () => {
    const res = await post(t.app, '/api/account_notify_update', { account_id: me, info: fullForm() }, staff);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    const back = (await post(t.app, '/api/account_notify', { account_id: me }, staff)).json<{
      notify: Record<string, unknown>;
    }>().notify;
    expect(back).toEqual({
      ...defaultNotifySettings(),
      email: 'alerts@example.jp',
      messageId: 'line-0001',
      device_lost: { enable: true, param: 30 },
      vibration: { enable: true, param: 2.5 },
      warn_area: { enable: true, param: null },
    });
  });

  it('answers invalid settings with 400 and Japanese messages per field, and changes nothing', async () => {
    const info = {
      ...fullForm(),
      email: 'not-an-address',
      device_lost: { enable: true, param: 4 },
      car_negrected: { enable: true, param: 400 },
      stop_time_over: { enable: true, param: '' },
      vibration: { enable: true, param: 'たくさん' },
    };
    const res = await post(t.app, '/api/account_notify_update', { account_id: me, info }, staff);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'BAD_REQUEST',
      message: errorMessages.badRequest,
      errors: {
        'info.email': m.email,
        'info.device_lost.param': notifyMessages.range(5, 10080),
        'info.car_negrected.param': notifyMessages.range(1, 365),
        'info.stop_time_over.param': m.required,
        'info.vibration.param': m.number,
      },
    });
    const back = (await post(t.app, '/api/account_notify', { account_id: me }, staff)).json<{
      notify: { device_lost: unknown };
    }>();
    expect(back.notify.device_lost).toEqual({ enable: true, param: 30 });
  });

  it('refuses without a session (401) and for another account (403)', async () => {
    expect((await post(t.app, '/api/account_notify_update', { account_id: me, info: fullForm() })).statusCode).toBe(
      401,
    );
    const res = await post(
      t.app,
      '/api/account_notify_update',
      { account_id: accounts.adminA.account_id, info: fullForm() },
      staff,
    );
    expect(res.statusCode).toBe(403);
    const row = await t.db
      .selectFrom('notification_settings')
      .select('account_id')
      .where('account_id', '=', accounts.adminA.account_id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('/api/mail_outbox_list', () => {
  beforeAll(async () => {
    await t.db.deleteFrom('mail_outbox').execute();
    const now = new Date('2026-12-01T00:00:00Z');
    for (let i = 1; i <= 3; i++)
      await enqueueMail(
        t.db,
        { to: `u${i}@example.jp`, subject: `件名${i}`, body: '秘密の本文', kind: 'notification' },
        now,
      );
    await t.db.updateTable('mail_outbox').set({ sent_at: now }).where('to_addr', '=', 'u1@example.jp').execute();
    await t.db
      .updateTable('mail_outbox')
      .set({ attempts: MAIL_MAX_ATTEMPTS, last_error: 'timeout' })
      .where('to_addr', '=', 'u2@example.jp')
      .execute();
  });

  it('lists the outbox for a super admin, newest first, paged, without bodies', async () => {
    const token = await login(t.app, 'superAdmin');
    const res = await post(t.app, '/api/mail_outbox_list', { offset: 0, limit: 2 }, token);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ count: number; list: Record<string, unknown>[] }>();
    expect(body.count).toBe(3);
    expect(body.list.map((r) => [r.to_addr, r.status])).toEqual([
      ['u3@example.jp', 'pending'],
      ['u2@example.jp', 'failed'],
    ]);
    expect(body.list[1]).toMatchObject({
      subject: '件名2',
      attempts: MAIL_MAX_ATTEMPTS,
      last_error: 'timeout',
      sent_at: null,
      kind: 'notification',
    });
    expect(res.body).not.toContain('秘密の本文');

    const page2 = (await post(t.app, '/api/mail_outbox_list', { offset: 2, limit: 2 }, token)).json<{
      list: { to_addr: string; sent_at: string }[];
    }>();
    expect(page2.list.map((r) => r.to_addr)).toEqual(['u1@example.jp']);
    expect(page2.list[0]!.sent_at).toBe('2026-12-01T00:00:00.000Z');
  });

  it('filters by status', async () => {
    const token = await login(t.app, 'superAdmin');
    for (const [status, expected] of [
      ['sent', ['u1@example.jp']],
      ['failed', ['u2@example.jp']],
      ['pending', ['u3@example.jp']],
    ] as const) {
      const res = (await post(t.app, '/api/mail_outbox_list', { status }, token)).json<{
        count: number;
        list: { to_addr: string }[];
      }>();
      expect(res.list.map((r) => r.to_addr)).toEqual(expected);
      expect(res.count).toBe(1);
    }
  });

  it('is for the super admin only', async () => {
    expect((await post(t.app, '/api/mail_outbox_list', {})).statusCode).toBe(401);
    for (const who of ['adminA', 'managerA', 'staffA'] as const) {
      expect((await post(t.app, '/api/mail_outbox_list', {}, await login(t.app, who))).statusCode).toBe(403);
    }
  });
});
