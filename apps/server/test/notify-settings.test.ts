import {
  accountNotify,
  accountNotifyUpdate,
  mailOutboxList,
  defaultNotifySettings,
  errorMessages,
  notifyMessages,
  validationMessages as m,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/mail/outbox.repository.js';
import { MAIL_MAX_ATTEMPTS } from '../src/mail/mail-policy.js';
import { accounts, createSignedInApp, unchecked, type SignedInApp } from './helper.js';

let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['staffA', 'adminB', 'superAdmin', 'adminA', 'managerA']);
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);

const me = accounts.staffA.account_id;
const fullForm = () => ({
  ...defaultNotifySettings(),
  email: 'alerts@example.jp',
  messageId: 'line-0001',
  device_lost: { enable: true, param: 30 },
  vibration: { enable: true, param: '2.5' },
  warn_area: { enable: true, param: null },
});

describe('account_notify', () => {
  it('answers the defaults for an account that never saved settings: everything off, params at their defaults', async () => {
    const res = await call(accountNotify, { account_id: me }, 'staffA');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notify: defaultNotifySettings() });
  });

  it('refuses without a session (401) and for another account (403), even to a manager or admin', async () => {
    expect((await call(accountNotify, { account_id: me })).status).toBe(401);
    for (const [who, other] of [
      ['staffA', accounts.managerA.account_id],
      ['adminB', me],
      ['superAdmin', me],
    ] as const) {
      const res = await call(accountNotify, { account_id: other }, who);
      expect(res.status).toBe(403);
      expect(res.error).toEqual({ code: 'FORBIDDEN', message: notifyMessages.ownOnly });
    }
  });
});

describe('account_notify_update', () => {
  it('saves one’s own settings and reads them back as saved', async () => {
    const res = await call(accountNotifyUpdate, { account_id: me, info: fullForm() }, 'staffA');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const back = (await call(accountNotify, { account_id: me }, 'staffA')).body.notify;
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
    const res = await call(accountNotifyUpdate, { account_id: me, info: unchecked(info) }, 'staffA');
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
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
    const back = (await call(accountNotify, { account_id: me }, 'staffA')).body;
    expect(back.notify.device_lost).toEqual({ enable: true, param: 30 });
  });

  it('refuses without a session (401) and for another account (403)', async () => {
    expect((await call(accountNotifyUpdate, { account_id: me, info: fullForm() })).status).toBe(401);
    const res = await call(accountNotifyUpdate, { account_id: accounts.adminA.account_id, info: fullForm() }, 'staffA');
    expect(res.status).toBe(403);
    const row = await t.db
      .selectFrom('notification_settings')
      .select('account_id')
      .where('account_id', '=', accounts.adminA.account_id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('mail_outbox_list', () => {
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
    const res = await call(mailOutboxList, { offset: 0, limit: 2 }, 'superAdmin');
    expect(res.status).toBe(200);
    const body = res.body;
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
    expect(res.raw.body).not.toContain('秘密の本文');

    const page2 = (await call(mailOutboxList, { offset: 2, limit: 2 }, 'superAdmin')).body;
    expect(page2.list.map((r) => r.to_addr)).toEqual(['u1@example.jp']);
    expect(page2.list[0]!.sent_at).toBe('2026-12-01T00:00:00.000Z');
  });

  it('filters by status', async () => {
    for (const [status, expected] of [
      ['sent', ['u1@example.jp']],
      ['failed', ['u2@example.jp']],
      ['pending', ['u3@example.jp']],
    ] as const) {
      const res = (await call(mailOutboxList, { status }, 'superAdmin')).body;
      expect(res.list.map((r) => r.to_addr)).toEqual(expected);
      expect(res.count).toBe(1);
    }
  });

  it('is for the super admin only', async () => {
    expect((await call(mailOutboxList, {})).status).toBe(401);
    for (const who of ['adminA', 'managerA', 'staffA'] as const) {
      expect((await call(mailOutboxList, {}, who)).status).toBe(403);
    }
  });
});
