import { COMMAND_EXPIRY_DEFAULT_MINUTES, ENGINE_CMD_IDX, engineMessages } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { signalCommands } from '../commands/command-signal.js';
import { reserveCommand } from '../commands/terminal-commands.repository.js';
import { expireCommands, findActiveInSlot } from '../commands/command.repository.js';
import { sql } from 'kysely';
import { claimDueRequest, markCancelledByServer, markFailed, markFired } from './request.repository.js';

/** Requests handled per tick at most; the rest wait for the next tick. */
const MAX_PER_TICK = 200;

export interface SchedulerOptions {
  db: Db;
  /** Where "now" comes from; tests inject their own. */
  clock?: () => Date;
}

export interface TickResult {
  fired: number;
  failed: number;
  expired: number;
  /** Requests whose creator no longer held the right over the vehicle: cancelled with the reason. */
  cancelled: number;
  /** Requests rolled back because the slot was taken at the same moment; retried at once. */
  conflicts: number;
}

type Outcome = 'fired' | 'failed' | 'cancelled' | 'none' | 'raced';
/** A fired request names its terminal, signalled once the transaction committed. */
type Fired = { fired: string };

/**
 * One due request, in one transaction: claimed with FOR UPDATE SKIP LOCKED,
 * turned into an engine command (state 1) and marked fired, or marked failed
 * with the reason. Another scheduler never sees it pending again.
 */
async function fireNext(db: Db, now: Date): Promise<Exclude<Outcome, 'fired'> | Fired> {
  return db.transaction().execute(async (trx) => {
    const req = await claimDueRequest(trx, now);
    if (!req) return 'none';
    const car = await trx
      .selectFrom('cars')
      .select(['car_data_id', 'is_delete'])
      .where('car_id', '=', req.car_id)
      .executeTakeFirst();
    const fail = async (reason: string) => {
      await markFailed(trx, req.request_id, reason, now);
      return 'failed' as const;
    };
    if (!car || car.is_delete) return fail(engineMessages.firedCarDeleted);
    if (!car.car_data_id) return fail(engineMessages.firedNoDevice);
    // Authority at firing time: the creator must still exist and hold the right over this vehicle now.
    // The reason is stored as its code (cancelReasons' key), read back as its text (cancelReasonText).
    const { rows } = await sql<{ lost: string | null }>`
      SELECT engine_right_lost(${req.created_by}, ${req.car_id}, NULL, 'set_engine_boot_permission') AS lost`.execute(
      trx,
    );
    const lost = rows[0]?.lost ?? null;
    if (lost !== null) {
      await markCancelledByServer(trx, req.request_id, lost);
      return 'cancelled';
    }
    await expireCommands(trx, now, car.car_data_id);
    if (await findActiveInSlot(trx, car.car_data_id, ENGINE_CMD_IDX)) return fail(engineMessages.firedSlotBusy);
    const commandId = await reserveCommand(trx, {
      car_data_id: car.car_data_id,
      car_id: req.car_id,
      cmd_idx: ENGINE_CMD_IDX,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: req.cmd },
      created_by: req.created_by,
      request_id: req.request_id,
      expires_at: new Date(now.getTime() + COMMAND_EXPIRY_DEFAULT_MINUTES * 60_000),
    });
    await markFired(trx, req.request_id, commandId, now);
    return { fired: car.car_data_id };
  });
}

/**
 * Turns due reservation requests into reserved commands and closes expired
 * commands; jobs/jobs.ts runs a tick every few seconds. Safe to run on every server
 * instance sharing one database: each request fires exactly once (docs/engine-control.md).
 */
export function createRequestScheduler(opts: SchedulerOptions) {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());

  async function tick(): Promise<TickResult> {
    const now = clock();
    const result: TickResult = {
      fired: 0,
      failed: 0,
      cancelled: 0,
      expired: await expireCommands(db, now),
      conflicts: 0,
    };
    for (let i = 0; i < MAX_PER_TICK; i++) {
      let outcome: Outcome;
      try {
        const next = await fireNext(db, now);
        if (typeof next === 'object') {
          // Committed: a terminal connected over TCP is handed the command now.
          await signalCommands(db, [next.fired]);
          outcome = 'fired';
        } else outcome = next;
      } catch (err) {
        // The slot was taken between the check and the insert (a console user, or another
        // request for the same vehicle): rolled back; the next claim finds the slot busy.
        if (!isUniqueViolation(err, 'reserved_commands_active_key')) throw err;
        outcome = 'raced';
      }
      if (outcome === 'none') break;
      if (outcome === 'fired') result.fired++;
      else if (outcome === 'failed') result.failed++;
      else if (outcome === 'cancelled') result.cancelled++;
      else result.conflicts++;
    }
    return result;
  }

  return {
    /** One pass now (the jobs module calls it every few seconds; tests call it with their clock). */
    tick,
  };
}
export type RequestScheduler = ReturnType<typeof createRequestScheduler>;
