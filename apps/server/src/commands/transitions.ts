import { reservationStates, type CommandStatus, type ReservedCommand } from '@fleet/contract';
import { sql } from 'kysely';

/**
 * The engine command's state machine in one place (docs/engine-control.md "Reserved commands").
 *
 * A reserved command is a `reserved_commands` row: `state` is the slot state of the product (1 execWait,
 * 2 resultWait, 3 resultEnd) and `deleted_at` + `closed_reason` close it without a result. Its status is
 * derived from those and the result:
 *
 * | from        | move                                    | to                          | written by |
 * |-------------|-----------------------------------------|-----------------------------|------------|
 * | (none)      | reserve (console, scheduled request)    | execWait                    | reserveCommand |
 * | execWait    | fetched by its terminal                 | resultWait                  | pendingCommandCtes (`fetched`) |
 * | execWait    | held: a prohibit while the vehicle moves| execWait (+ one 'held' event)| pendingCommandCtes (`held_events`) |
 * | execWait    | deleted by an account                   | closed 'deleted'            | deleteWaitingCommand |
 * | execWait    | its creator lost the right, its vehicle was deleted or moved | closed 'cancelled' | pendingCommandCtes (`right_lost`), the authority triggers (db/triggers.json) |
 * | execWait    | expiry passed                           | closed 'expired'            | expireCommands |
 * | resultWait  | result reported                         | resultEnd (succeeded/failed)| completeCommands |
 * | resultWait  | no result RESULT_GRACE_MS after expiry  | closed 'expired'            | expireCommands |
 *
 * Every move writes a `reserved_command_events` row in the same statement or transaction; the console's
 * moves (reserve, delete) also write their audit row in that transaction.
 */

export const { execWait, resultWait, resultEnd } = reservationStates;

/** A fetched command whose result never came is closed this long after it expired. */
export const RESULT_GRACE_MS = 10 * 60_000;

/** The columns the status is derived from. */
export interface StatusColumns {
  state: number;
  deleted_at: unknown;
  closed_reason: 'deleted' | 'expired' | 'cancelled' | null;
  result: unknown;
}

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

export function commandStatus(r: StatusColumns): CommandStatus {
  if (r.deleted_at !== null) return r.closed_reason ?? 'deleted';
  if (r.state === execWait) return 'execWait';
  if (r.state === resultWait) return 'resultWait';
  return (json(r.result) as { success?: boolean } | null)?.success ? 'succeeded' : 'failed';
}

/** The slot state of docs/product.md §4 a command leaves behind: 0 when it is closed without running. */
export const slotState = (c: Pick<ReservedCommand, 'status' | 'state'> | null): number =>
  !c || c.status === 'deleted' || c.status === 'expired' || c.status === 'cancelled' ? reservationStates.wait : c.state;

/**
 * Named conditions on a `reserved_commands` row (unqualified columns: use them where the table is the
 * statement's only one or its target).
 */
/** Not closed and not past its expiry: the command may still be handed out or answered. */
const live = sql<boolean>`deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())`;
/** Waiting to be handed out. */
export const liveWaiting = sql<boolean>`state = ${execWait} AND ${live}`;
/** Handed out, its result not in yet. */
export const liveFetched = sql<boolean>`state = ${resultWait} AND ${live}`;
/** Occupies its slot (the unique index `reserved_commands_active_key` holds one per terminal and slot). */
export const occupiesSlot = sql<boolean>`state IN (${execWait}, ${resultWait}) AND deleted_at IS NULL`;
