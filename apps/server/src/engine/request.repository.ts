import { RECENT_REQUESTS, cancelReasonText, type FromDb, type ReservationRequest } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { commandStatus } from '../commands/transitions.js';

/**
 * Reservation requests (docs/product.md §3 request_id, car_id + content): a permit or
 * prohibit due at execute_at. pending → fired | failed (by the scheduler) or
 * cancelled (by a user); each change keeps its time and who made it.
 */
export interface NewRequest {
  request_id: string;
  car_id: string;
  cmd: number;
  execute_at: string;
  created_by: string;
}

/** Stores a request with the company of its vehicle now (a company reads only its own requests). */
export async function insertRequest(db: Db, r: NewRequest): Promise<void> {
  await db
    .insertInto('reservation_requests')
    .values({
      ...r,
      command_id: null,
      fired_at: null,
      reason: null,
      cancelled_by: null,
      cancelled_at: null,
      company_id: sql<string | null>`(SELECT company_id FROM cars WHERE car_id = ${r.car_id})`,
    })
    .execute();
}

export async function countPending(db: Db, carId: string): Promise<number> {
  const row = await db
    .selectFrom('reservation_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('car_id', '=', carId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const selectRequests = (db: Db) =>
  db
    .selectFrom('reservation_requests as r')
    .leftJoin('accounts as by', 'by.account_id', 'r.created_by')
    .leftJoin('accounts as cb', 'cb.account_id', 'r.cancelled_by')
    .leftJoin('reserved_commands as c', 'c.id', 'r.command_id')
    .select([
      'r.request_id',
      'r.car_id',
      'r.cmd',
      'r.execute_at',
      'r.status',
      'r.reason',
      'r.command_id',
      'r.created_by',
      'by.name as created_by_name',
      'r.created_at',
      'r.fired_at',
      'r.cancelled_by',
      'cb.name as cancelled_by_name',
      'r.cancelled_at',
      'c.state as command_state',
      'c.deleted_at as command_deleted_at',
      'c.closed_reason as command_closed_reason',
      'c.result as command_result',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof selectRequests>['execute']>>[number];

const toRequest = (r: Row): FromDb<typeof ReservationRequest> => ({
  request_id: r.request_id,
  car_id: r.car_id,
  cmd: r.cmd,
  execute_at: r.execute_at,
  status: r.status,
  reason: cancelReasonText(r.reason),
  command_id: r.command_id === null ? null : Number(r.command_id),
  command_status:
    r.command_state === null
      ? null
      : commandStatus({
          state: r.command_state,
          deleted_at: r.command_deleted_at,
          closed_reason: r.command_closed_reason,
          result: r.command_result,
        }),
  created_by: r.created_by,
  created_by_name: r.created_by_name,
  created_at: r.created_at,
  fired_at: r.fired_at,
  cancelled_by: r.cancelled_by,
  cancelled_by_name: r.cancelled_by_name,
  cancelled_at: r.cancelled_at,
});

/** Requests of a vehicle made while it was the company's (company null: all). */
const ofCar = (db: Db, carId: string, company: string | null) => {
  const q = selectRequests(db).where('r.car_id', '=', carId);
  return company === null ? q : q.where('r.company_id', '=', company);
};

/** Every pending request of a vehicle (soonest first) and its latest finished ones. */
export async function listRequests(db: Db, carId: string, company: string | null) {
  const pending = await ofCar(db, carId, company)
    .where('r.status', '=', 'pending')
    .orderBy('r.execute_at')
    .orderBy('r.created_at')
    .execute();
  const recent = await ofCar(db, carId, company)
    .where('r.status', '!=', 'pending')
    .orderBy('r.execute_at', 'desc')
    .orderBy('r.created_at', 'desc')
    .limit(RECENT_REQUESTS)
    .execute();
  return { pending: pending.map(toRequest), recent: recent.map(toRequest) };
}

export async function findRequestCar(db: Db, requestId: string) {
  return db
    .selectFrom('reservation_requests')
    .select(['car_id', 'status', 'company_id'])
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** pending → cancelled, by the account; false when it was no longer pending. */
export async function cancelRequest(db: Db, requestId: string, accountId: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('reservation_requests')
    .set({ status: 'cancelled', cancelled_by: accountId, cancelled_at: now })
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The next due pending request, locked for this transaction; requests another
 * scheduler holds are skipped, so no two schedulers ever handle the same one.
 */
export async function claimDueRequest(db: Db, now: Date) {
  return db
    .selectFrom('reservation_requests')
    .select(['request_id', 'car_id', 'cmd', 'created_by', 'company_id'])
    .where('status', '=', 'pending')
    .where('execute_at', '<=', now)
    .orderBy('execute_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function markFired(db: Db, requestId: string, commandId: number, now: Date) {
  await db
    .updateTable('reservation_requests')
    .set({ status: 'fired', command_id: commandId, fired_at: now })
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
}

/** pending → cancelled by the server, with the reason (the creator lost the right); audited. */
export async function markCancelledByServer(db: Db, requestId: string, reason: string) {
  await sql`SELECT cancel_pending_requests(ARRAY[${requestId}]::text[], ${reason})`.execute(db);
}

export async function markFailed(db: Db, requestId: string, reason: string, now: Date) {
  await db
    .updateTable('reservation_requests')
    .set({ status: 'failed', reason, fired_at: now })
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .execute();
}
