import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export type ReportFrequency = 'daily' | 'monthly';

/** An account's scheduled reports, with the address they go to; all off when it never chose. */
export async function getSubscription(db: Db, accountId: string) {
  const row = await db
    .selectFrom('accounts as a')
    .leftJoin('report_subscriptions as s', 's.account_id', 'a.account_id')
    .select(['a.email', 's.daily', 's.monthly', 's.company_id'])
    .where('a.account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { daily: row.daily ?? false, monthly: row.monthly ?? false, company_id: row.company_id, email: row.email };
}

/**
 * Saves the account's choice. `sentFor` is what counts as sent when a report is switched on (now or again):
 * the next period due is the first one sent, never a backlog; a report left on keeps its place.
 */
export async function saveSubscription(
  db: Db,
  accountId: string,
  choice: { daily: boolean; monthly: boolean; company_id: string | null },
  sentFor: { daily: string; monthly: string },
  now: Date,
) {
  await db
    .insertInto('report_subscriptions')
    .values({
      account_id: accountId,
      ...choice,
      daily_sent_for: sentFor.daily,
      monthly_sent_for: sentFor.monthly,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet((eb) => ({
        daily: eb.ref('excluded.daily'),
        monthly: eb.ref('excluded.monthly'),
        company_id: eb.ref('excluded.company_id'),
        daily_sent_for: sql<
          string | null
        >`case when report_subscriptions.daily then report_subscriptions.daily_sent_for else excluded.daily_sent_for end`,
        monthly_sent_for: sql<
          string | null
        >`case when report_subscriptions.monthly then report_subscriptions.monthly_sent_for else excluded.monthly_sent_for end`,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export interface DueSubscription {
  account_id: string;
  email: string;
  role: number;
  /** The account's own company. */
  account_company_id: string | null;
  /** The super admin's choice (null: every company). */
  company_id: string | null;
}

/**
 * Takes up to `limit` subscriptions whose report for `period` is not queued yet and marks it queued, in
 * the caller's transaction (rolled back with it when the report cannot be made). SKIP LOCKED: instances
 * running the job at once take different accounts. A deleted account gets nothing.
 */
export async function claimDueSubscriptions(
  trx: Db,
  frequency: ReportFrequency,
  period: string,
  limit: number,
): Promise<DueSubscription[]> {
  const flag = frequency === 'daily' ? 'daily' : 'monthly';
  const sentFor = frequency === 'daily' ? 'daily_sent_for' : 'monthly_sent_for';
  const due = trx
    .selectFrom('report_subscriptions as s')
    .innerJoin('accounts as a', 'a.account_id', 's.account_id')
    .select('s.account_id')
    .where(`s.${flag}`, '=', true)
    .where('a.is_delete', '=', false)
    .where(sql<boolean>`s.${sql.ref(sentFor)} is distinct from ${period}`)
    .orderBy('s.account_id')
    .limit(limit)
    .forUpdate('s')
    .skipLocked();
  const claimed = await trx
    .updateTable('report_subscriptions')
    .set({ [sentFor]: period })
    .where('account_id', 'in', due)
    .returning(['account_id', 'company_id'])
    .execute();
  if (!claimed.length) return [];
  const accounts = await trx
    .selectFrom('accounts')
    .select(['account_id', 'email', 'role', 'company_id'])
    .where(
      'account_id',
      'in',
      claimed.map((c) => c.account_id),
    )
    .execute();
  const byId = new Map(accounts.map((a) => [a.account_id, a]));
  return claimed.map((c) => {
    const a = byId.get(c.account_id)!;
    return {
      account_id: c.account_id,
      email: a.email,
      role: a.role,
      account_company_id: a.company_id,
      company_id: c.company_id,
    };
  });
}
