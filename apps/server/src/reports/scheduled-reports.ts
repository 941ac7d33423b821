import { parseDateBound, reportHourReached, reportMail, scheduledPeriod } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { companyScope } from '../access/visibility.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { scheduledSummary } from './report-data.js';
import { summaryXlsx } from './report-files.js';
import { claimDueSubscriptions, type ReportFrequency } from './subscription.repository.js';

/** Subscriptions handled per transaction: a workbook each, so a transaction stays short. */
const BATCH = 10;

/** The period to mark as already sent when a report is switched on at `now`: the next one due is sent, no older one. */
export function sentForOnSubscribe(frequency: ReportFrequency, now: Date): string {
  return reportHourReached(now)
    ? scheduledPeriod(frequency, now).key
    : scheduledPeriod(frequency, new Date(now.getTime() - 86_400_000)).key;
}

/**
 * Queues the scheduled fleet summaries that are due (docs/trips.md "Scheduled reports"): from the report
 * hour in Japan, yesterday's for the daily subscribers and, on the month's first day, last month's for
 * the monthly ones, each as a mail with the workbook attached, through the mail outbox. A subscription
 * is marked for the period in the same transaction as its mail is queued, so each period is queued once,
 * on any number of instances; the summary covers what the account may see (access/visibility.ts).
 */
export async function queueScheduledReports(db: Db, now: Date): Promise<number> {
  if (!reportHourReached(now)) return 0;
  let queued = 0;
  for (const frequency of ['daily', 'monthly'] as const) {
    const period = scheduledPeriod(frequency, now);
    const from = parseDateBound(period.from, 'from')!;
    const to = parseDateBound(period.to, 'to')!;
    for (;;) {
      const n = await db.transaction().execute(async (trx) => {
        const due = await claimDueSubscriptions(trx, frequency, period.key, BATCH);
        for (const s of due) {
          // The account's scope today: its own company, or for the super admin the company it chose (or all).
          const company =
            companyScope({ account_id: s.account_id, role: s.role, company_id: s.account_company_id }) ?? s.company_id;
          const data = await scheduledSummary(trx, company, from, to);
          const file = await summaryXlsx(data, now);
          await enqueueMail(
            trx,
            {
              to: s.email,
              subject: reportMail.subject(frequency, period.key),
              body: reportMail.body(frequency, period.from, period.to, data.rows.length, data.total.distance_m),
              kind: 'report',
              attachments: [
                { filename: reportMail.fileName(period.key), contentType: file.contentType, content: file.body },
              ],
            },
            now,
          );
        }
        return due.length;
      });
      queued += n;
      if (n < BATCH) break;
    }
  }
  return queued;
}
