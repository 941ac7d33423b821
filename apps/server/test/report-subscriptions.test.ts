import ExcelJS from 'exceljs';
import {
  reportMessages,
  reportSubscription,
  reportSubscriptionUpdate,
  summaryColumns,
  validationMessages,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailDispatcher } from '../src/mail/mail-dispatcher.js';
import { queueScheduledReports } from '../src/reports/scheduled-reports.js';
import { accounts, createSignedInApp, fleet, unchecked, type SignedInApp } from './helper.js';
import { dispatcherFor } from './notify-support.js';
import { CAR_A_NUMBER, seedReportDay } from './report-support.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';

let t: SignedInApp;
let smtp: SmtpReceiver;
let mail: MailDispatcher;

/** 07:05 in Japan on the day after the seeded day (2026-11-20): yesterday's report is due. */
const DUE = new Date('2026-11-21T07:05:00+09:00');

beforeAll(async () => {
  [t, smtp] = await Promise.all([
    createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA', 'adminB']),
    startSmtpReceiver(),
  ]);
  await seedReportDay(t);
  // The dispatcher's clock is past every queued mail's time.
  mail = dispatcherFor(t.db, smtp.url, () => new Date('2027-01-01T00:00:00Z'));
});
afterAll(async () => {
  await mail?.stop();
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('report_subscriptions').execute();
  await t.db.deleteFrom('mail_outbox').execute();
  smtp.mails.length = 0;
});

/** Subscribed as if at a time before the seeded day, so the seeded day's report is still due. */
const subscribedBefore = (accountId: string) =>
  t.db
    .updateTable('report_subscriptions')
    .set({ daily_sent_for: '2026-11-01', monthly_sent_for: '2026-09' })
    .where('account_id', '=', accountId)
    .execute();

describe('report_subscription(_update)', () => {
  it('starts switched off, to the account address, and keeps a choice', async () => {
    const before = await t.call(reportSubscription, {}, 'staffA');
    expect(before.body).toEqual({ daily: false, monthly: false, company_id: null, email: accounts.staffA.email });
    expect((await t.call(reportSubscriptionUpdate, { daily: true, monthly: false }, 'staffA')).body).toEqual({
      ok: true,
    });
    expect((await t.call(reportSubscription, {}, 'staffA')).body).toMatchObject({ daily: true, monthly: false });
    // Another account's choice is its own.
    expect((await t.call(reportSubscription, {}, 'managerA')).body).toMatchObject({ daily: false });
  });

  it('lets only the super admin pick a company, and only a live one', async () => {
    const staff = await t.call(
      reportSubscriptionUpdate,
      { daily: true, monthly: true, company_id: fleet.B.company_id },
      'staffA',
    );
    expect(staff.status).toBe(403);
    expect(staff.error.message).toBe(reportMessages.otherCompany);
    const unknown = await t.call(
      reportSubscriptionUpdate,
      { daily: true, monthly: false, company_id: 'no-such' },
      'superAdmin',
    );
    expect(unknown.status).toBe(400);
    expect(unknown.error.errors).toEqual({ company_id: reportMessages.companyMissing });
    const ok = await t.call(
      reportSubscriptionUpdate,
      { daily: true, monthly: false, company_id: fleet.B.company_id },
      'superAdmin',
    );
    expect(ok.status).toBe(200);
    expect((await t.call(reportSubscription, {}, 'superAdmin')).body.company_id).toBe(fleet.B.company_id);
  });

  it('refuses bad input in Japanese and writes nothing', async () => {
    const bad = await t.call(reportSubscriptionUpdate, unchecked({ daily: 'yes', monthly: true }), 'staffA');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ daily: validationMessages.invalid });
    expect(await t.db.selectFrom('report_subscriptions').selectAll().execute()).toEqual([]);
    expect((await t.call(reportSubscription, {})).status).toBe(401);
  });
});

describe('scheduled reports', () => {
  it('sends yesterday’s fleet summary once, by mail with the workbook attached', async () => {
    await t.call(reportSubscriptionUpdate, { daily: true, monthly: false }, 'managerA');
    await subscribedBefore(accounts.managerA.account_id);

    // Before the report hour in Japan nothing is queued.
    expect(await queueScheduledReports(t.db, new Date('2026-11-21T06:59:00+09:00'))).toBe(0);
    expect(await queueScheduledReports(t.db, DUE)).toBe(1);
    // Another run, or another instance, queues nothing more for the day.
    expect(await queueScheduledReports(t.db, new Date(DUE.getTime() + 3600_000))).toBe(0);

    expect(await mail.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.mails).toHaveLength(1);
    const [m] = smtp.mails;
    expect(m!.to).toEqual([accounts.managerA.email]);
    expect(m!.subject).toBe('【車両別集計】2026/11/20');
    expect(m!.text).toContain('期間: 2026/11/20〜2026/11/20（日本時間）');
    expect(m!.text).toContain('走行距離の合計: 17.3 km');
    expect(m!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['fleet_summary_2026-11-20.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(m!.attachments[0]!.content as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('車両別集計')!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(summaryColumns.map((c) => c.header));
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual([
      CAR_A_NUMBER,
      fleet.A.car_data_id,
      17.3,
      0.83,
      2,
      2,
      62,
    ]);
    // The company's vehicles only (company A has one).
    expect(ws.rowCount).toBe(3);
    // A sent mail keeps no file.
    expect(await t.db.selectFrom('mail_attachments').selectAll().execute()).toEqual([]);
  });

  it('covers the subscriber’s own company, and last month on the first of the month', async () => {
    await t.call(reportSubscriptionUpdate, { daily: false, monthly: true }, 'adminB');
    await subscribedBefore(accounts.adminB.account_id);
    // Mid-month: last month's report (October) is due once.
    expect(await queueScheduledReports(t.db, DUE)).toBe(1);
    expect(await queueScheduledReports(t.db, new Date('2026-11-25T08:00:00+09:00'))).toBe(0);
    // On 1 December, November's is due (with the seeded day in it).
    expect(await queueScheduledReports(t.db, new Date('2026-12-01T07:00:00+09:00'))).toBe(1);
    await mail.runOnce();
    expect(smtp.mails.map((m) => m.subject)).toEqual(['【車両別集計】2026年10月', '【車両別集計】2026年11月']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(smtp.mails[1]!.attachments[0]!.content as unknown as ArrayBuffer);
    const rows = wb.getWorksheet('車両別集計')!.getSheetValues().slice(2) as unknown[][];
    // Company B's report: its vehicle, never company A's.
    expect(rows.map((r) => r[2])).toEqual([fleet.B.car_data_id, undefined]);
  });

  it('sends nothing to an account that switched off or was deleted', async () => {
    await t.call(reportSubscriptionUpdate, { daily: true, monthly: true }, 'staffA');
    await subscribedBefore(accounts.staffA.account_id);
    await t.call(reportSubscriptionUpdate, { daily: false, monthly: false }, 'staffA');
    await t.call(reportSubscriptionUpdate, { daily: true, monthly: false }, 'adminA');
    await subscribedBefore(accounts.adminA.account_id);
    await t.db
      .updateTable('accounts')
      .set({ is_delete: true })
      .where('account_id', '=', accounts.adminA.account_id)
      .execute();
    try {
      expect(await queueScheduledReports(t.db, DUE)).toBe(0);
    } finally {
      await t.db
        .updateTable('accounts')
        .set({ is_delete: false })
        .where('account_id', '=', accounts.adminA.account_id)
        .execute();
    }
  });

  it('does not send a backlog when a report is switched on: the next period due is the first', async () => {
    await t.call(reportSubscriptionUpdate, { daily: true, monthly: true }, 'staffA');
    const row = await t.db
      .selectFrom('report_subscriptions')
      .selectAll()
      .where('account_id', '=', 'staff-a')
      .executeTakeFirstOrThrow();
    // Switched on now (after the seeded day): the reports already due count as sent.
    expect(row.daily_sent_for).not.toBeNull();
    expect(await queueScheduledReports(t.db, new Date())).toBe(0);
  });
});
