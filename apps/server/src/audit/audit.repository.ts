import { cancelReasonText, type AuditLogRow, type AuditTargetType } from '@fleet/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * The audit log: one row per change made through the console, written by the
 * service that made it (in its transaction when it has one). Never holds a
 * password or token, only ids and the changed fields that matter.
 */
export async function writeAudit(
  db: Db,
  actor: { account_id: string } | null,
  action: string,
  target_type: AuditTargetType,
  target_id: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ account_id: actor?.account_id ?? null, action, target_type, target_id, detail: JSON.stringify(detail) })
    .execute();
}

/**
 * The audit rows of a change made by the system (no account) inside another statement, as SQL to use
 * as a data-modifying CTE of that statement, so the rows commit or roll back with the change they
 * record. `source` selects `target_id` (text) and `detail` (jsonb), one row per audited change.
 */
export function systemAuditFrom(action: string, targetType: AuditTargetType, source: RawBuilder<unknown>) {
  return sql`INSERT INTO audit_log (account_id, action, target_type, target_id, detail)
    SELECT NULL, ${action}, ${targetType}, audited.target_id, audited.detail FROM (${source}) AS audited`;
}

export interface AuditFilter {
  target_type?: string | undefined;
  target_id?: string | undefined;
  account_id?: string | undefined;
  offset: number;
  limit: number;
}

const filtered = (db: Db, f: AuditFilter) => {
  let q = db.selectFrom('audit_log as l');
  if (f.target_type) q = q.where('l.target_type', '=', f.target_type);
  if (f.target_id) q = q.where('l.target_id', '=', f.target_id);
  if (f.account_id) q = q.where('l.account_id', '=', f.account_id);
  return q;
};

/**
 * A stored detail as the screen reads it: a server cancellation's `reason` is stored as its code (the
 * database has no texts) and read as the contract's text.
 */
function detailOf(stored: unknown): Record<string, unknown> {
  const detail = (typeof stored === 'string' ? JSON.parse(stored) : stored) as Record<string, unknown>;
  return typeof detail.reason === 'string' ? { ...detail, reason: cancelReasonText(detail.reason) } : detail;
}

export async function listAudit(db: Db, f: AuditFilter): Promise<{ count: number; list: AuditLogRow[] }> {
  const { count } = await filtered(db, f)
    .select(sql<number>`count(*)::int`.as('count'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, f)
    .leftJoin('accounts as a', 'a.account_id', 'l.account_id')
    .select([
      'l.id',
      'l.at',
      'l.account_id',
      'a.name as account_name',
      'l.action',
      'l.target_type',
      'l.target_id',
      'l.detail',
    ])
    .orderBy('l.id', 'desc')
    .offset(f.offset)
    .limit(f.limit)
    .execute();
  return {
    count: Number(count),
    list: rows.map((r) => ({
      ...r,
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      detail: detailOf(r.detail),
    })),
  };
}
