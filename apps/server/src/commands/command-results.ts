import { deviceProtocolMessages as msg, reservationStates, type RecordOf, type RejectedRecord } from '@fleet/contract';
import type { Insertable } from 'kysely';
import { recordCommandFailures } from '../alerts/alerts.repository.js';
import type { Db } from '../db/database.js';
import type { EngineLogsTable } from '../db/schema.js';
import {
  completeCommands,
  lockCommands,
  type CommandResult,
  type LockedCommand,
} from './terminal-commands.repository.js';
import type { EngineLineChange } from '../telemetry/latest-patch.js';

export interface IndexedResult {
  index: number;
  record: RecordOf<'command_result'>;
}

/** Why a terminal may not report this result, or null when it may. */
function refusal(cmd: LockedCommand | undefined, carDataId: string, seen: Set<number>): string | null {
  // Another terminal's command is answered like an unknown one, so ids are no way to probe.
  if (!cmd || cmd.car_data_id !== carDataId) return msg.unknownCommand;
  if (seen.has(cmd.id)) return msg.duplicateResult;
  if (cmd.deleted_at !== null || cmd.state !== reservationStates.resultWait) return msg.commandNotWaiting;
  return null;
}

/** Engine start permission as the engine line: 0 permit → connected, 1 prohibit → disconnected. */
export function engineLineOf(cmd: Pick<LockedCommand, 'cmd_type' | 'cmd_info'>): string | null {
  if (cmd.cmd_type !== 'set_engine_boot_permission') return null;
  const v = Number(cmd.cmd_info.cmd);
  return v === 0 ? 'connected' : v === 1 ? 'disconnected' : null;
}

/**
 * Applies the command results of a batch: the terminal's own commands in
 * resultWait move to resultEnd; a successful engine permission changes the
 * engine line and writes an engine log row carrying who ordered it.
 *
 * The engine log row lies in the time of the vehicle the terminal is on now. A
 * command made for another company (the terminal fetched it, then moved) is not
 * named there: the row keeps the engine line, not the command nor who ordered it,
 * which only the command's own history shows (docs/engine-control.md, "Tenancy follows the terminal").
 */
export async function applyCommandResults(db: Db, carDataId: string, results: readonly IndexedResult[]) {
  const refused: RejectedRecord[] = [];
  const engineRows: Insertable<EngineLogsTable>[] = [];
  const lineChanges: EngineLineChange[] = [];
  if (results.length === 0) return { refused, engineRows, lineChanges };

  const commands = new Map(
    (await lockCommands(db, [...new Set(results.map((r) => r.record.command_id))])).map((c) => [c.id, c]),
  );
  const carrier = await db
    .selectFrom('cars')
    .select('company_id')
    .where('car_data_id', '=', carDataId)
    .where('is_delete', '=', false)
    .executeTakeFirst();
  const seen = new Set<number>();
  const done: CommandResult[] = [];
  for (const { index, record } of results) {
    const cmd = commands.get(record.command_id);
    const reason = refusal(cmd, carDataId, seen);
    if (reason !== null || !cmd) {
      refused.push({ index, reason: `command_id: ${reason ?? msg.unknownCommand}` });
      continue;
    }
    seen.add(cmd.id);
    done.push({ id: cmd.id, success: record.success, detail: record.detail, time: record.time });
    const line = record.success ? engineLineOf(cmd) : null;
    if (line) {
      lineChanges.push({ time: record.time, engine_line: line });
      const sameCompany = carrier !== undefined && carrier.company_id === cmd.company_id;
      engineRows.push({
        car_data_id: carDataId,
        recorded_at: record.time,
        running: null,
        engine_line: line,
        command: sameCompany ? Number(cmd.cmd_info.cmd) : null,
        command_id: sameCompany ? cmd.id : null,
        account_id: sameCompany ? cmd.created_by : null,
      });
    }
  }
  await completeCommands(db, done);
  // A failed command is an alert of the inbox (docs/zones.md "Alerts").
  await recordCommandFailures(
    db,
    done.filter((d) => !d.success),
    new Date(),
  );
  return { refused, engineRows, lineChanges };
}
