import {
  linkProtocols,
  reservationStates,
  reservedCommandTypes,
  type DeviceCommand,
  type ReservedCommandType,
} from '@fleet/contract';
import { sql, type RawBuilder } from 'kysely';
import { systemAuditFrom } from '../audit/audit.repository.js';
import { liveFetched, liveWaiting } from './transitions.js';
import type { Db } from '../db/database.js';

/** The TCP protocols as an SQL list of literals (constants of the contract: the statement's text stays fixed). */
const linkProtocolList = sql.raw(linkProtocols.map((p) => `'${p}'`).join(', '));

/** Reserved commands: the moves of transitions.ts that a terminal's hand-out and results make, and the reservation. */
export interface NewReservedCommand {
  car_data_id: string;
  cmd_type: ReservedCommandType;
  /** set_engine_boot_permission: { cmd: 0 permit | 1 prohibit } */
  cmd_info: Record<string, unknown>;
  created_by: string | null;
  /** Defaults to the command type's position in reservedCommandTypes. */
  cmd_idx?: number;
  request_id?: string | null;
  expires_at?: Date | string | null;
  /** The vehicle it is for; absent: the live vehicle carrying the terminal now. */
  car_id?: string;
}

/** The live vehicle carrying a terminal, as a subquery. */
const liveCarOf = (carDataId: string) =>
  sql<
    string | null
  >`(SELECT car_id FROM cars WHERE car_data_id = ${carDataId} AND NOT is_delete ORDER BY car_id LIMIT 1)`;

/**
 * Reserves a command for a terminal (state 1) with its 'reserved' event, in one
 * statement. It remembers the vehicle and its company: a company reads only its
 * own commands, and the hand-out checks the creator's right over that vehicle. Throws the unique violation (23505) when the terminal already has
 * an active command with the same cmd_idx.
 */
export async function reserveCommand(db: Db, c: NewReservedCommand): Promise<number> {
  const row = await db
    .with('cmd', (qb) =>
      qb
        .insertInto('reserved_commands')
        .values({
          car_data_id: c.car_data_id,
          cmd_idx: c.cmd_idx ?? reservedCommandTypes.indexOf(c.cmd_type),
          cmd_type: c.cmd_type,
          cmd_info: JSON.stringify(c.cmd_info),
          state: reservationStates.execWait,
          created_by: c.created_by,
          request_id: c.request_id ?? null,
          expires_at: c.expires_at ?? null,
          fetched_at: null,
          result_at: null,
          result: null,
          deleted_at: null,
          car_id: c.car_id ?? liveCarOf(c.car_data_id),
          company_id: sql<
            string | null
          >`(SELECT company_id FROM cars WHERE car_id = ${c.car_id ?? liveCarOf(c.car_data_id)})`,
        })
        .returning(['id', 'created_by']),
    )
    .insertInto('reserved_command_events')
    .columns(['command_id', 'state', 'event', 'account_id'])
    .expression((eb) =>
      eb
        .selectFrom('cmd')
        .select([
          'cmd.id',
          sql<number>`${reservationStates.execWait}::smallint`.as('state'),
          sql<string>`'reserved'`.as('event'),
          'cmd.created_by',
        ]),
    )
    .returning('command_id')
    .executeTakeFirstOrThrow();
  return Number(row.command_id);
}

export interface CommandRow {
  id: number | string;
  cmd_idx: number;
  cmd_type: string;
  cmd_info: unknown;
  created_at: Date | string;
}
export const toDeviceCommand = (r: CommandRow): DeviceCommand => ({
  id: Number(r.id),
  cmd_idx: r.cmd_idx,
  cmd_type: r.cmd_type,
  cmd_info: (typeof r.cmd_info === 'string' ? JSON.parse(r.cmd_info) : r.cmd_info) as Record<string, unknown>,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * The commands a terminal should execute: moves its waiting ones to
 * resultWait (with a 'fetched' event) and repeats those already fetched
 * whose result has not come yet, so a lost reply loses no command.
 */
export async function takePendingCommands(db: Db, carDataId: string): Promise<DeviceCommand[]> {
  return (await takePendingCommandsOf(db, [carDataId])).get(carDataId) ?? [];
}

/**
 * Why the creator no longer holds the right over the vehicle the terminal is on now, as a code of the contract's
 * cancelReasons (stored so, read back as its text); null while they do.
 */
const rightLost = sql`engine_right_lost(created_by, car_id, car_data_id, cmd_type)`;

/**
 * The CTEs of takePendingCommands for the terminals `ids` (a text[] expression):
 * `pending` lists each one's commands (id, car_data_id, cmd_idx, cmd_type,
 * cmd_info, created_at), those fetched now included.
 *
 * Authority is checked at the hand-out (docs/engine-control.md): a
 * waiting command whose creator was deleted or lost the right, or whose vehicle
 * was deleted or no longer carries the terminal, is cancelled with the reason
 * (event and audit row) and never handed out; a fetched one is no longer repeated.
 */

export function pendingCommandCtes(
  ids: RawBuilder<unknown>,
  opts: { holdMovingProhibits?: boolean } = {},
): RawBuilder<unknown>[] {
  const { execWait, resultWait } = reservationStates;
  const holdNow = opts.holdMovingProhibits ? movingProhibit : sql`false`;
  // Terminals of the TCP protocols (Teltonika, GT06, …) get their commands from the link gateway alone (takeLinkCommands: in
  // their own form, a prohibit held while moving); the batches their frames are stored as hand out nothing,
  // or a frame of a moving vehicle would fetch the very prohibit held back.
  const ownChannel = opts.holdMovingProhibits
    ? sql`true`
    : sql`NOT EXISTS (SELECT 1 FROM devices AS d WHERE d.car_data_id = reserved_commands.car_data_id
        AND NOT d.is_delete AND d.protocol IN (${linkProtocolList}))`;
  return [
    sql`right_lost AS (
      UPDATE reserved_commands SET deleted_at = now(), closed_reason = 'cancelled', cancel_reason = ${rightLost}
      WHERE car_data_id = ANY(${ids}) AND ${liveWaiting} AND ${rightLost} IS NOT NULL
      RETURNING id, car_id, car_data_id, company_id, created_by, cancel_reason)`,
    sql`right_lost_events AS (
      INSERT INTO reserved_command_events (command_id, state, event, reason)
      SELECT id, ${execWait}, 'cancelled', cancel_reason FROM right_lost)`,
    sql`right_lost_audit AS (${systemAuditFrom(
      'engine_command.cancel',
      'engine_command',
      sql`SELECT id::text AS target_id,
             jsonb_build_object('car_id', car_id, 'car_data_id', car_data_id, 'company_id', company_id,
                                'created_by', created_by, 'reason', cancel_reason) AS detail
      FROM right_lost`,
    )})`,
    sql`fetched AS (
      UPDATE reserved_commands SET state = ${resultWait}, fetched_at = now()
      WHERE car_data_id = ANY(${ids}) AND ${liveWaiting} AND ${rightLost} IS NULL
        -- OsmAnd terminals cannot receive commands: theirs stay waiting and expire (docs/device-protocol.md §10).
        AND NOT EXISTS (SELECT 1 FROM devices AS d WHERE d.car_data_id = reserved_commands.car_data_id AND d.protocol = 'osmand') AND NOT ${holdNow}
        AND ${ownChannel}
      RETURNING id, car_data_id, cmd_idx, cmd_type, cmd_info, created_at)`,
    // Said once per command in its timeline (a unique index): why it is still waiting.
    sql`held_events AS (
      INSERT INTO reserved_command_events (command_id, state, event, reason)
      SELECT id, ${execWait}, 'held', ${HELD_WHILE_MOVING} FROM reserved_commands
      WHERE car_data_id = ANY(${ids}) AND ${liveWaiting} AND ${rightLost} IS NULL AND ${holdNow}
        AND NOT EXISTS (SELECT 1 FROM reserved_command_events AS e WHERE e.command_id = reserved_commands.id AND e.event = 'held')
      -- A hand-out at the same time (the poll, a signal) may have written it since this statement's snapshot.
      ON CONFLICT (command_id) WHERE event = 'held' DO NOTHING)`,
    sql`fetched_events AS (
      INSERT INTO reserved_command_events (command_id, state, event)
      SELECT id, ${resultWait}, 'fetched' FROM fetched)`,
    sql`pending AS (
      SELECT id, car_data_id, cmd_idx, cmd_type, cmd_info, created_at FROM fetched
      UNION ALL
      SELECT id, car_data_id, cmd_idx, cmd_type, cmd_info, created_at FROM reserved_commands
      WHERE car_data_id = ANY(${ids}) AND ${liveFetched} AND ${rightLost} IS NULL AND ${ownChannel})`,
  ];
}

/** The reason in the timeline of a prohibit held back while its vehicle moves. */
export const HELD_WHILE_MOVING = '車両が走行中のため、停車するまで送信を保留しています';

/**
 * A prohibit (cmd 1) for a vehicle moving now: its latest fix has a speed and
 * its ignition is not known to be off. `cmd_info.while_moving: true` sends it anyway.
 */
const movingProhibit = sql<boolean>`(cmd_type = 'set_engine_boot_permission' AND cmd_info->>'cmd' = '1'
  AND coalesce(cmd_info->>'while_moving', '') <> 'true'
  AND EXISTS (SELECT 1 FROM device_latest_state AS s WHERE s.car_data_id = reserved_commands.car_data_id
    AND coalesce(s.speed, 0) > 0 AND s.engine_running IS DISTINCT FROM 'off'))`;

/**
 * takePendingCommandsOf for terminals on a live link (Teltonika, GT06): the
 * same hand-out with its authority checks, but a prohibit waits while the
 * vehicle moves (a 'held' event says so) and goes out once it stopped.
 * `waitingWhileMoving`: the terminals with such a prohibit waiting now, so the link can look
 * again as soon as a frame of theirs is stored.
 */
export async function takeLinkCommands(
  db: Db,
  carDataIds: readonly string[],
): Promise<{ commands: Map<string, DeviceCommand[]>; waitingWhileMoving: Set<string> }> {
  return handOut(db, carDataIds, true);
}

/** takePendingCommands for several terminals in one statement: IMEI → its commands (absent when none). */
export async function takePendingCommandsOf(
  db: Db,
  carDataIds: readonly string[],
  opts: { holdMovingProhibits?: boolean } = {},
): Promise<Map<string, DeviceCommand[]>> {
  return (await handOut(db, carDataIds, opts.holdMovingProhibits ?? false)).commands;
}

async function handOut(db: Db, carDataIds: readonly string[], holdMovingProhibits: boolean) {
  const commands = new Map<string, DeviceCommand[]>();
  const waitingWhileMoving = new Set<string>();
  if (carDataIds.length === 0) return { commands, waitingWhileMoving };
  const ids = sql`${[...carDataIds]}::text[]`;
  // The prohibits held back by this very statement (one snapshot: the same rows its held_events saw).
  const stillHeld = holdMovingProhibits
    ? sql`UNION ALL
      SELECT id, car_data_id, cmd_idx, cmd_type, cmd_info, created_at, true FROM reserved_commands
      WHERE car_data_id = ANY(${ids}) AND ${liveWaiting} AND ${rightLost} IS NULL AND ${movingProhibit}`
    : sql``;
  const result = await sql<CommandRow & { car_data_id: string; held: boolean }>`
    WITH ${sql.join(pendingCommandCtes(ids, { holdMovingProhibits }))}
    SELECT id, car_data_id, cmd_idx, cmd_type, cmd_info, created_at, false AS held FROM pending
    ${stillHeld}
    ORDER BY id`.execute(db);
  for (const row of result.rows) {
    if (row.held) {
      waitingWhileMoving.add(row.car_data_id);
      continue;
    }
    const list = commands.get(row.car_data_id);
    if (list) list.push(toDeviceCommand(row));
    else commands.set(row.car_data_id, [toDeviceCommand(row)]);
  }
  return { commands, waitingWhileMoving };
}

/** Commands a batch reports results for, locked until the batch commits. */
export async function lockCommands(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('reserved_commands')
    .select(['id', 'car_data_id', 'cmd_type', 'cmd_info', 'state', 'created_by', 'deleted_at', 'company_id'])
    .where('id', 'in', ids)
    .forUpdate()
    .execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    cmd_info: (typeof r.cmd_info === 'string' ? JSON.parse(r.cmd_info) : r.cmd_info) as Record<string, unknown>,
  }));
}
export type LockedCommand = Awaited<ReturnType<typeof lockCommands>>[number];

export interface CommandResult {
  id: number;
  success: boolean;
  detail: string;
  /** When the terminal executed the command (the record's time). */
  time: string;
}

/** Moves commands to resultEnd with their results and a 'succeeded' / 'failed' event each. */
export async function completeCommands(db: Db, results: readonly CommandResult[]) {
  for (const r of results) {
    await db
      .updateTable('reserved_commands')
      .set({
        state: reservationStates.resultEnd,
        result_at: r.time,
        result: JSON.stringify({ success: r.success, detail: r.detail }),
      })
      .where('id', '=', r.id)
      .execute();
  }
  if (results.length === 0) return;
  await db
    .insertInto('reserved_command_events')
    .values(
      results.map((r) => ({
        command_id: r.id,
        state: reservationStates.resultEnd,
        event: r.success ? 'succeeded' : 'failed',
        account_id: null,
      })),
    )
    .execute();
}
