import { cmdIdxOf, engineMessages, reservationStates, type Actor, type ReservedCommand, type ReservedCommandType } from '@fleet/contract';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { reserveCommand } from '../gateway/command.repository.js';
import { conflict } from '../http/errors.js';
import { deleteWaitingCommand, expireCommands, findActiveInSlot, findCommand, findLatestInSlot } from './command.repository.js';
import { assertTerminalReservable } from './engine-scope.js';

export interface ReserveInput {
  car_data_id: string;
  cmd_type: ReservedCommandType;
  /** What the terminal receives. */
  cmd_info: Record<string, unknown>;
  expires_in_minutes: number;
}

/**
 * Reserves a command in its type's slot (state 1, execWait). A slot holding a
 * command in execWait or resultWait refuses with 409; an expired one is
 * closed first so it never blocks the slot.
 */
export async function reserve(db: Db, actor: Actor, input: ReserveInput, now: Date): Promise<ReservedCommand> {
  await assertTerminalReservable(db, actor, input.car_data_id);
  const cmdIdx = cmdIdxOf(input.cmd_type);
  await expireCommands(db, now, input.car_data_id);
  if (await findActiveInSlot(db, input.car_data_id, cmdIdx)) throw conflict(engineMessages.slotBusy);
  let id: number;
  try {
    id = await reserveCommand(db, {
      car_data_id: input.car_data_id,
      cmd_idx: cmdIdx,
      cmd_type: input.cmd_type,
      cmd_info: input.cmd_info,
      created_by: actor.account_id,
      expires_at: new Date(now.getTime() + input.expires_in_minutes * 60_000),
    });
  } catch (err) {
    // Someone reserved the same slot between the check and the insert.
    if (isUniqueViolation(err, 'reserved_commands_active_key')) throw conflict(engineMessages.slotBusy);
    throw err;
  }
  await writeAudit(db, actor, 'engine_command.reserve', 'engine_command', String(id), {
    car_data_id: input.car_data_id,
    cmd_type: input.cmd_type,
    cmd_info: input.cmd_info,
  });
  return (await findCommand(db, id))!;
}

/** Deletes the slot's command; only in execWait, else 409 saying why. */
export async function deleteReserved(db: Db, actor: Actor, carDataId: string, cmdIdx: number, now: Date): Promise<void> {
  await expireCommands(db, now, carDataId);
  const deleted = await deleteWaitingCommand(db, carDataId, cmdIdx, actor.account_id, now);
  if (deleted !== null)
    return writeAudit(db, actor, 'engine_command.delete', 'engine_command', String(deleted), { car_data_id: carDataId, cmd_idx: cmdIdx });
  const latest = await findLatestInSlot(db, carDataId, cmdIdx);
  if (latest?.status === 'resultWait') throw conflict(engineMessages.deleteFetched);
  if (latest && latest.state === reservationStates.resultEnd) throw conflict(engineMessages.deleteFinished);
  throw conflict(engineMessages.nothingToDelete);
}
