import { cancelReasonText, linkChanged, type FromDb, type ReservedCommand } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { RESULT_GRACE_MS, commandStatus, execWait, occupiesSlot, resultWait } from './transitions.js';

/**
 * The console's side of reserved commands. Reserving, handing out and results
 * live in ./terminal-commands.repository.ts (reserveCommand, takePendingCommands,
 * completeCommands); this file reads commands and closes the ones that never
 * ran: deleted in execWait, or expired. Reads take the reader's company
 * (null: every company): a company sees only the commands made for its vehicles.
 */

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

type Row = {
  id: number | string;
  car_data_id: string;
  cmd_idx: number;
  cmd_type: string;
  cmd_info: unknown;
  state: number;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  fetched_at: Date | string | null;
  result_at: Date | string | null;
  result: unknown;
  request_id: string | null;
  deleted_at: Date | string | null;
  closed_reason: 'deleted' | 'expired' | 'cancelled' | null;
  cancel_reason: string | null;
  sent_address: string | null;
  sent_connected_at: Date | string | null;
  answer_address: string | null;
  answer_connected_at: Date | string | null;
};

const linkOf = (address: string | null, at: Date | string | null) =>
  address !== null && at !== null ? { address, connected_at: at } : null;

const selectCommands = (db: Db) =>
  db
    .selectFrom('reserved_commands as c')
    .leftJoin('accounts as a', 'a.account_id', 'c.created_by')
    .select([
      'c.id',
      'c.car_data_id',
      'c.cmd_idx',
      'c.cmd_type',
      'c.cmd_info',
      'c.state',
      'c.created_by',
      'a.name as created_by_name',
      'c.created_at',
      'c.expires_at',
      'c.fetched_at',
      'c.result_at',
      'c.result',
      'c.request_id',
      'c.deleted_at',
      'c.closed_reason',
      'c.cancel_reason',
      'c.sent_address',
      'c.sent_connected_at',
      'c.answer_address',
      'c.answer_connected_at',
    ]);

/** Commands of one terminal made for the company's vehicles (company null: all). */
const ofTerminal = (db: Db, carDataId: string, company: string | null) => {
  const q = selectCommands(db).where('c.car_data_id', '=', carDataId);
  return company === null ? q : q.where('c.company_id', '=', company);
};

/** Commands with their event timelines (in the order they were recorded), in the order given. */
async function withEvents(db: Db, rows: Row[]): Promise<FromDb<typeof ReservedCommand>[]> {
  const ids = rows.map((r) => Number(r.id));
  const events = ids.length
    ? await db
        .selectFrom('reserved_command_events as e')
        .leftJoin('accounts as a', 'a.account_id', 'e.account_id')
        .select(['e.command_id', 'e.state', 'e.event', 'e.account_id', 'a.name as account_name', 'e.at', 'e.reason'])
        .where('e.command_id', 'in', ids)
        .orderBy('e.id')
        .execute()
    : [];
  return rows.map((r) => {
    const result = json(r.result) as { success?: unknown; detail?: unknown } | null;
    const sent = linkOf(r.sent_address, r.sent_connected_at);
    const answer = linkOf(r.answer_address, r.answer_connected_at);
    return {
      command_id: Number(r.id),
      car_data_id: r.car_data_id,
      cmd_idx: r.cmd_idx,
      cmd_type: r.cmd_type,
      cmd_info: (json(r.cmd_info) ?? {}) as Record<string, unknown>,
      state: r.state,
      status: commandStatus(r),
      created_by: r.created_by,
      created_by_name: r.created_by_name,
      created_at: r.created_at,
      expires_at: r.expires_at,
      fetched_at: r.fetched_at,
      result_at: r.result_at,
      result: result ? { success: result.success === true, detail: String(result.detail ?? '') } : null,
      request_id: r.request_id,
      closed_at: r.deleted_at,
      cancel_reason: cancelReasonText(r.cancel_reason),
      sent_link: sent,
      answer_link: answer,
      link_changed: linkChanged(sent, answer),
      events: events
        .filter((e) => Number(e.command_id) === Number(r.id))
        .map((e) => ({
          state: e.state,
          event: e.event,
          account_id: e.account_id,
          account_name: e.account_name,
          at: e.at,
          reason: cancelReasonText(e.reason),
        })),
    };
  });
}

export async function findCommand(db: Db, id: number): Promise<FromDb<typeof ReservedCommand> | null> {
  const rows = (await selectCommands(db).where('c.id', '=', id).execute()) as Row[];
  return (await withEvents(db, rows))[0] ?? null;
}

/** The slot's newest command: the active one when there is one (only one can be). */
export async function findLatestInSlot(
  db: Db,
  carDataId: string,
  cmdIdx: number,
  company: string | null,
): Promise<FromDb<typeof ReservedCommand> | null> {
  const rows = (await ofTerminal(db, carDataId, company)
    .where('c.cmd_idx', '=', cmdIdx)
    .orderBy('c.id', 'desc')
    .limit(1)
    .execute()) as Row[];
  return (await withEvents(db, rows))[0] ?? null;
}

/** Past and current commands of a terminal, newest first. */
export async function listCommands(
  db: Db,
  carDataId: string,
  company: string | null,
  opts: { cmdIdx?: number | undefined; limit: number },
) {
  let q = ofTerminal(db, carDataId, company);
  if (opts.cmdIdx !== undefined) q = q.where('c.cmd_idx', '=', opts.cmdIdx);
  const rows = (await q.orderBy('c.id', 'desc').limit(opts.limit).execute()) as Row[];
  return withEvents(db, rows);
}

/** The slot's command in execWait or resultWait, if any. */
export async function findActiveInSlot(db: Db, carDataId: string, cmdIdx: number) {
  return db
    .selectFrom('reserved_commands')
    .select(['id', 'state'])
    .where('car_data_id', '=', carDataId)
    .where('cmd_idx', '=', cmdIdx)
    .where(occupiesSlot)
    .executeTakeFirst();
}

/**
 * Deletes the slot's command while it is in execWait, with a 'deleted' event
 * by the account. One statement, so a terminal fetching it at the same moment
 * either gets it (and the delete finds nothing) or never sees it.
 */
export async function deleteWaitingCommand(
  db: Db,
  carDataId: string,
  cmdIdx: number,
  company: string | null,
  accountId: string,
  now: Date,
): Promise<number | null> {
  const ofCompany = company === null ? sql`` : sql`AND company_id = ${company}`;
  const result = await sql<{ command_id: number }>`
    WITH closed AS (
      UPDATE reserved_commands SET deleted_at = ${now}, closed_reason = 'deleted'
      WHERE car_data_id = ${carDataId} AND cmd_idx = ${cmdIdx} AND state = ${execWait} AND deleted_at IS NULL ${ofCompany}
      RETURNING id
    )
    INSERT INTO reserved_command_events (command_id, state, event, account_id, at)
    SELECT id, ${execWait}, 'deleted', ${accountId}, ${now} FROM closed
    RETURNING command_id`.execute(db);
  const row = result.rows[0];
  return row ? Number(row.command_id) : null;
}

/**
 * Closes commands whose expiry passed: execWait ones at once (the gateway no
 * longer hands them out), resultWait ones RESULT_GRACE_MS later (the gateway
 * stopped repeating them at expiry; the grace lets a late result in). Each
 * gets an 'expired' event at the moment it expired. All terminals, or one.
 */
export async function expireCommands(db: Db, now: Date, carDataId?: string): Promise<number> {
  const graceStart = new Date(now.getTime() - RESULT_GRACE_MS);
  const oneTerminal = carDataId === undefined ? sql`` : sql`AND car_data_id = ${carDataId}`;
  const result = await sql<{ command_id: number }>`
    WITH closed AS (
      UPDATE reserved_commands
      SET deleted_at = CASE WHEN state = ${execWait} THEN expires_at ELSE expires_at + ${`${RESULT_GRACE_MS} milliseconds`}::interval END,
          closed_reason = 'expired'
      WHERE deleted_at IS NULL AND expires_at IS NOT NULL
        AND ((state = ${execWait} AND expires_at <= ${now}) OR (state = ${resultWait} AND expires_at <= ${graceStart}))
        ${oneTerminal}
      RETURNING id, state, deleted_at
    )
    INSERT INTO reserved_command_events (command_id, state, event, account_id, at)
    SELECT id, state, 'expired', NULL, deleted_at FROM closed
    RETURNING command_id`.execute(db);
  return result.rows.length;
}
