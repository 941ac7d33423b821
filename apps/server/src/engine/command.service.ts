import {
  cmdIdxOf,
  engineMessages,
  protocolsWithoutCommands,
  reservationStates,
  type FromDb,
  type ReservedCommand,
  type ReservedCommandType,
} from '@fleet/contract';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { signalCommands } from '../commands/command-signal.js';
import { reserveCommand } from '../commands/terminal-commands.repository.js';
import { conflict } from '../http/errors.js';
import {
  deleteWaitingCommand,
  expireCommands,
  findActiveInSlot,
  findCommand,
  findLatestInSlot,
} from '../commands/command.repository.js';
import type { Access } from '../access/access.js';
import { assertTerminalReservable } from './engine-scope.js';
import { findProtocolByImei } from '../device/device.repository.js';

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
export async function reserve(
  db: Db,
  access: Access,
  input: ReserveInput,
  now: Date,
): Promise<FromDb<typeof ReservedCommand>> {
  await assertTerminalReservable(db, access, input.car_data_id);
  access.mayCommand(input.cmd_type);
  // OsmAnd (Traccar Client) has no channel back to the terminal: a command would only wait and expire.
  const protocol = await findProtocolByImei(db, input.car_data_id);
  if (protocol && protocolsWithoutCommands.includes(protocol)) throw conflict(engineMessages.noCommandChannel);
  if (input.cmd_type === 'set_engine_boot_permission') access.steppedUpFor(Number(input.cmd_info.cmd), now);
  const cmdIdx = cmdIdxOf(input.cmd_type);
  // The command, its 'reserved' event and its audit row commit together or not at all.
  const id = await db.transaction().execute(async (trx) => {
    await expireCommands(trx, now, input.car_data_id);
    if (await findActiveInSlot(trx, input.car_data_id, cmdIdx)) throw conflict(engineMessages.slotBusy);
    let reserved: number;
    try {
      reserved = await reserveCommand(trx, {
        car_data_id: input.car_data_id,
        cmd_idx: cmdIdx,
        cmd_type: input.cmd_type,
        cmd_info: input.cmd_info,
        created_by: access.account_id,
        expires_at: new Date(now.getTime() + input.expires_in_minutes * 60_000),
      });
    } catch (err) {
      // Someone reserved the same slot between the check and the insert.
      if (isUniqueViolation(err, 'reserved_commands_active_key')) throw conflict(engineMessages.slotBusy);
      throw err;
    }
    await writeAudit(trx, access, 'engine_command.reserve', 'engine_command', String(reserved), {
      car_data_id: input.car_data_id,
      cmd_type: input.cmd_type,
      cmd_info: input.cmd_info,
    });
    return reserved;
  });
  // Committed: a terminal connected over TCP is handed it now, on whichever instance it is connected.
  await signalCommands(db, [input.car_data_id]);
  return (await findCommand(db, id))!;
}

/** Deletes the slot's command; only in execWait, else 409 saying why. */
export async function deleteReserved(
  db: Db,
  access: Access,
  carDataId: string,
  cmdIdx: number,
  now: Date,
): Promise<void> {
  access.mayCommandSlot(cmdIdx);
  await expireCommands(db, now, carDataId);
  const { company } = access;
  // The close, its 'deleted' event and its audit row commit together.
  const deleted = await db.transaction().execute(async (trx) => {
    const closed = await deleteWaitingCommand(trx, carDataId, cmdIdx, company, access.account_id, now);
    if (closed !== null)
      await writeAudit(trx, access, 'engine_command.delete', 'engine_command', String(closed), {
        car_data_id: carDataId,
        cmd_idx: cmdIdx,
      });
    return closed;
  });
  if (deleted !== null) return;
  const latest = await findLatestInSlot(db, carDataId, cmdIdx, company);
  if (latest?.status === 'resultWait') throw conflict(engineMessages.deleteFetched);
  if (latest && latest.state === reservationStates.resultEnd) throw conflict(engineMessages.deleteFinished);
  throw conflict(engineMessages.nothingToDelete);
}
