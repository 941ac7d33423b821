import type { DeviceCommand, DeviceRecord, RecordOf, RejectedRecord } from '@fleet/contract';
import { sql, type CompiledQuery, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from '../db/database.js';
import { executePrepared } from '../db/prepared.js';
import type { DeviceLatestStateTable, EngineLogsTable } from '../db/schema.js';
import {
  latestStateUpsertFrom,
  liveOwner,
  toLiveRecord,
  type LiveRecord,
} from '../telemetry/latest-state.repository.js';
import { pendingCommandCtes, toDeviceCommand, type CommandRow } from '../commands/terminal-commands.repository.js';
import { deviceStateOf, type LatestPatch } from '../telemetry/latest-patch.js';
import type { IngestFollower } from './ingest-follower.js';

/**
 * Writes of the gateway. Batches are stored by ONE statement, one batch or
 * many of different terminals at once (group commit): the (IMEI, seq) claims,
 * a multi-row INSERT per log table and the latest-state merge as
 * data-modifying CTEs, the last two only for the batches whose claim took. One
 * round trip, atomic on its own, and a repeated batch (the claim finds its
 * receipt) writes nothing. Rows travel as one array per column through
 * unnest(), so any number of records is a handful of parameters and one plan.
 *
 * On PostgreSQL a group (in its transaction) leaves the log rows out of that
 * statement and writes those of the claimed batches with one COPY per table
 * right after it (copyLogs): COPY skips the planning, the parameter arrays
 * and unnest, and is the fastest way rows go in (bench/README.md §2).
 */
const json = (v: unknown) => JSON.stringify(v);

interface Row<R> {
  imei: string;
  r: R;
}
type Column<R> = readonly [name: string, type: string, value: (r: R) => unknown];

/** The log tables' columns besides car_data_id and recorded_at: name, PostgreSQL type, value of a record. */
interface LogTable<T extends DeviceRecord['type']> {
  table: string;
  type: T;
  columns: readonly Column<RecordOf<T>>[];
}
const logTable = <T extends DeviceRecord['type']>(
  table: string,
  type: T,
  columns: readonly Column<RecordOf<T>>[],
): LogTable<DeviceRecord['type']> => ({ table, type, columns }) as unknown as LogTable<DeviceRecord['type']>;

const LOG_TABLES: readonly LogTable<DeviceRecord['type']>[] = [
  logTable('gps_logs', 'gps', [
    ['lat', 'float8', (r) => r.lat],
    ['lng', 'float8', (r) => r.lng],
    ['speed', 'float8', (r) => r.speed],
    ['heading', 'float8', (r) => r.heading],
    ['satellites', 'int', (r) => r.satellites],
    ['accuracy', 'float8', (r) => r.accuracy],
  ]),
  logTable('engine_logs', 'engine', [
    ['running', 'text', (r) => r.running],
    ['engine_line', 'text', (r) => r.engine_line],
  ]),
  logTable('connection_logs', 'connection', [['state', 'text', (r) => r.state]]),
  logTable('battery_logs', 'battery', [
    ['voltage', 'float8', (r) => r.voltage],
    ['percentage', 'float8', (r) => r.percentage],
  ]),
  logTable('sensor_logs', 'sensor', [
    ['vibration', 'float8', (r) => r.vibration],
    ['readings', 'jsonb', (r) => json(r.readings)],
  ]),
  logTable('obd2_logs', 'obd2', [['pids', 'jsonb', (r) => json(r.pids)]]),
  logTable('error_logs', 'error', [
    ['error_type', 'text', (r) => r.error_type],
    ['status_code', 'int', (r) => r.status_code],
    ['detail', 'text', (r) => r.detail],
  ]),
];

/** Every log table with rows in these batches: its columns (car_data_id and recorded_at first) and rows, in the terminals' order. */
function logRows(batches: readonly NewBatch[]) {
  return LOG_TABLES.flatMap(({ table, type, columns }) => {
    const rows = batches.flatMap((b) => b.records.filter((r) => r.type === type).map((r) => ({ imei: b.imei, r })));
    if (rows.length === 0) return [];
    const all: Column<Row<DeviceRecord>>[] = [
      ['car_data_id', 'text', (x) => x.imei],
      ['recorded_at', 'timestamptz', (x) => x.r.time],
      ...columns.map(([name, t, value]): Column<Row<DeviceRecord>> => [name, t, (x) => value(x.r)]),
    ];
    return [{ table, columns: all, rows }];
  });
}

/** One multi-row INSERT per log table, rows as one array per column through unnest(); only rows of claimed batches are kept. */
function logInserts(batches: readonly NewBatch[]): RawBuilder<unknown>[] {
  return logRows(batches).map(({ table, columns, rows }) => {
    const names = sql.raw(columns.map(([name]) => name).join(', '));
    const arrays = columns.map(([, type, value]) => sql`${rows.map((x) => value(x) ?? null)}::${sql.raw(type)}[]`);
    // ORDER BY the position: ids follow the terminal's order, as they did batch by batch.
    return sql`INSERT INTO ${sql.table(table)} (${names})
      SELECT ${names} FROM unnest(${sql.join(arrays)}) WITH ORDINALITY AS u(${names}, n)
      WHERE u.car_data_id IN (SELECT car_data_id FROM claim) ORDER BY u.n`;
  });
}

/** A value in COPY's text format: \N for NULL, and backslash, tab, LF and CR escaped. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_SPECIAL = /[\\\t\n\r]/;
const copyField = (v: unknown): string => {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  const s = String(v);
  return COPY_SPECIAL.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : s;
};

/** The COPY text of the log rows of these batches: one text per table with rows, rows in the terminals' order. */
function copyTexts(batches: readonly NewBatch[]) {
  const byType = new Map(LOG_TABLES.map((t) => [t.type as string, { table: t, text: '' }]));
  for (const b of batches) {
    const imei = copyField(b.imei);
    for (const r of b.records) {
      const out = byType.get(r.type);
      if (!out) continue;
      let line = `${imei}\t${copyField(r.time)}`;
      for (const [, , value] of out.table.columns) line += `\t${copyField(value(r))}`;
      out.text += `${line}\n`;
    }
  }
  return [...byType.values()].filter((o) => o.text !== '');
}

/**
 * PostgreSQL only: the log rows of these (claimed) batches, one COPY … FROM
 * STDIN per table in the caller's transaction, rows in the terminals' order.
 * COPY is PostgreSQL's fastest way in (no plan, no parameters to bind, a text
 * row parsed straight into the table); it takes no WHERE, so the claim comes
 * first and only the claimed batches come here.
 */
async function copyLogs(trx: Db, batches: readonly NewBatch[]): Promise<void> {
  for (const { table, text } of copyTexts(batches)) {
    const names = ['car_data_id', 'recorded_at', ...table.columns.map(([name]) => name)].join(', ');
    const stream = copyFrom(`COPY ${table.table} (${names}) FROM STDIN`);
    const done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
    });
    // pg runs any object with submit() as a query on the transaction's connection (as export.copy.ts does).
    await trx.executeQuery({ sql: stream, parameters: [] } as unknown as CompiledQuery);
    stream.end(text);
    await done;
  }
}

/** Each batch's latest-state patch as a row, for the claimed batches only, in IMEI order (the lock order). */
function patchRows(batches: readonly NewBatch[]): RawBuilder<unknown> {
  const columns: Column<LatestPatch>[] = [
    ['recorded_at', 'timestamptz', (p) => p.recorded_at],
    ['lat', 'float8', (p) => p.position?.value.lat],
    ['lng', 'float8', (p) => p.position?.value.lng],
    ['speed', 'float8', (p) => p.position?.value.speed],
    ['heading', 'float8', (p) => p.position?.value.heading],
    ['position_at', 'timestamptz', (p) => p.position?.at],
    ['engine_running', 'text', (p) => p.engine_running?.value],
    ['engine_running_at', 'timestamptz', (p) => p.engine_running?.at],
    ['engine_line', 'text', (p) => p.engine_line?.value],
    ['engine_line_at', 'timestamptz', (p) => p.engine_line?.at],
    ['connection', 'text', (p) => p.connection?.value],
    ['connection_at', 'timestamptz', (p) => p.connection?.at],
    ['device_state', 'int', (p) => deviceStateOf(p)],
    ['device_state_at', 'timestamptz', (p) => p.device_state?.at],
    ['battery_voltage', 'float8', (p) => p.battery?.value.voltage],
    ['battery_percentage', 'float8', (p) => p.battery?.value.percentage],
    ['battery_at', 'timestamptz', (p) => p.battery?.at],
  ];
  const names = sql.raw(['car_data_id', ...columns.map(([name]) => name)].join(', '));
  const arrays = [
    sql`${batches.map((b) => b.imei)}::text[]`,
    ...columns.map(([, type, value]) => sql`${batches.map((b) => value(b.patch) ?? null)}::${sql.raw(type)}[]`),
  ];
  return sql`SELECT ${names}, now() FROM unnest(${sql.join(arrays)}) AS p(${names})
    WHERE p.car_data_id IN (SELECT car_data_id FROM claim) ORDER BY p.car_data_id`;
}

export interface NewBatch {
  imei: string;
  seq: number;
  accepted: number;
  rejected: RejectedRecord[];
  /** Records to log (command results are not logs of their own). */
  records: readonly DeviceRecord[];
  patch: LatestPatch;
  /** It carries command results: its commands are read once they are settled, not by the storing statement. */
  settles: boolean;
}

/**
 * The CTEs storing the batches: claim, log0… (unless `logs` is false: the
 * caller copies them, copyLogs), merged (the merged latest states of the claimed ones).
 * The statement reads each state's owner (liveOwner) too: a push is judged by who had the terminal
 * when it was stored, not by what a stream read when it opened.
 */
function storeCtes(batches: readonly NewBatch[], logs = true): RawBuilder<unknown>[] {
  if (new Set(batches.map((b) => b.imei)).size !== batches.length)
    throw new Error('storeAndRead: at most one batch per terminal');
  return [
    sql`claim AS (INSERT INTO device_batches (car_data_id, seq, accepted, rejected)
      SELECT * FROM unnest(${batches.map((b) => b.imei)}::text[], ${batches.map((b) => b.seq)}::int8[],
        ${batches.map((b) => b.accepted)}::int[], ${batches.map((b) => json(b.rejected))}::jsonb[])
      ON CONFLICT (car_data_id, seq) DO NOTHING RETURNING car_data_id)`,
    ...(logs ? logInserts(batches) : []).map((insert, i) => sql`${sql.raw(`log${i}`)} AS (${insert})`),
    sql`merged AS (${latestStateUpsertFrom(patchRows(batches))} RETURNING *)`,
  ];
}

export interface StoredAndRead {
  /** False when the (IMEI, seq) had been stored before: nothing was written. */
  claimed: boolean;
  /** The merged latest state of the terminal with its owner now (for the live push), for a claimed batch. */
  state: LiveRecord | null;
  /** The terminal's commands (takePendingCommands). */
  commands: DeviceCommand[];
  /** What each follower read for the terminal (IngestFollower.read), by the followers' order. */
  reads: unknown[];
}

const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/**
 * Stores each batch unless its (IMEI, seq) was stored before, at most one
 * batch per terminal, and reads in the same statement what the gateway needs
 * next: the commands of every terminal (as takePendingCommands, fetched ones
 * move to resultWait; not for a batch that settles commands) and what the followers read (ingest-follower.ts). One
 * round trip. Answers in the order given.
 *
 * With `copy` (PostgreSQL, in the caller's transaction) the log rows are not
 * part of the statement, which then is the same text for every group and runs
 * prepared (executePrepared): the claimed batches' rows follow by COPY, one per
 * table (copyLogs).
 */
export async function storeAndRead(
  db: Db,
  batches: readonly NewBatch[],
  opts: { followers: readonly IngestFollower[]; copy?: boolean },
): Promise<StoredAndRead[]> {
  if (batches.length === 0) return [];
  const ids = sql`${batches.map((b) => b.imei)}::text[]`;
  const reads = opts.followers.flatMap((f) => (f.read ? [f.read] : []));
  const commandIds = sql`${batches.filter((b) => !b.settles).map((b) => b.imei)}::text[]`;
  const ctes = [
    ...storeCtes(batches, !opts.copy),
    ...pendingCommandCtes(commandIds),
    ...reads.flatMap((r) => r.ctes(ids)),
  ];
  const readColumns = reads.map((r, k) => sql`${r.value(sql`i.imei`)} AS ${sql.ref(`read${k}`)}`);
  const query = sql<
    {
      imei: string;
      claimed: boolean;
      state: unknown;
      owner_company_id: string | null;
      owner_car_id: string | null;
      period_started_at: Date | null;
      commands: unknown;
    } & Record<`read${number}`, unknown>
  >`
    WITH ${sql.join(ctes)}
    SELECT i.imei, c.car_data_id IS NOT NULL AS claimed, to_jsonb(m) AS state, o.*,
      (SELECT jsonb_agg(to_jsonb(x) ORDER BY x.id) FROM pending AS x WHERE x.car_data_id = i.imei) AS commands
      ${readColumns.length ? sql`, ${sql.join(readColumns)}` : sql``}
    FROM unnest(${ids}) AS i(imei)
    LEFT JOIN claim AS c ON c.car_data_id = i.imei
    LEFT JOIN merged AS m ON m.car_data_id = i.imei
    LEFT JOIN LATERAL (${liveOwner(sql`i.imei`)}) AS o ON true`;
  // Its text does not change with the group (every value travels in an array) and planning its CTEs
  // costs about as much as running them: prepared, planned once per connection.
  const { rows } = opts.copy ? await executePrepared(db, query.compile(db), true) : await query.execute(db);
  const byImei = new Map(rows.map((r) => [r.imei, r]));
  if (opts.copy)
    await copyLogs(
      db,
      batches.filter((b) => byImei.get(b.imei)!.claimed),
    );
  // A follower without a read still gets its place: reads line up with the followers.
  let k = 0;
  const slots = opts.followers.map((f) => (f.read ? k++ : -1));
  return batches.map((b) => {
    const r = byImei.get(b.imei)!;
    const { owner_company_id, owner_car_id, period_started_at } = r;
    const state =
      r.claimed && r.state
        ? toLiveRecord({
            ...parse<Selectable<DeviceLatestStateTable>>(r.state),
            owner_company_id,
            owner_car_id,
            period_started_at,
          })
        : null;
    return {
      claimed: r.claimed,
      state,
      commands: r.commands ? parse<CommandRow[]>(r.commands).map(toDeviceCommand) : [],
      reads: slots.map((slot) => (slot < 0 ? null : parse<unknown>(r[`read${slot}`]))),
    };
  });
}

/**
 * Claims record keys (a record's own seq, ingest.service.ts recordSeq) in device_batches beside the
 * batches' receipts, in one statement: those stored before (by any batch) are not claimed again.
 * Answers the claimed ones as `<IMEI> <key>`.
 */
export async function claimRecordKeys(db: Db, keys: readonly { imei: string; key: number }[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await sql<{ claimed: string }>`INSERT INTO device_batches (car_data_id, seq, accepted, rejected)
    SELECT u.imei, u.key, 1, '[]'::jsonb FROM unnest(${keys.map((k) => k.imei)}::text[], ${keys.map((k) => k.key)}::int8[]) AS u(imei, key)
    ON CONFLICT (car_data_id, seq) DO NOTHING RETURNING car_data_id || ' ' || seq::text AS claimed`.execute(db);
  return new Set(rows.map((r) => r.claimed));
}

/** The first answer to a batch, for its repetitions. */
export async function findBatch(db: Db, carDataId: string, seq: number) {
  const row = await db
    .selectFrom('device_batches')
    .select(['accepted', 'rejected'])
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  return {
    accepted: row.accepted,
    rejected: (typeof row.rejected === 'string' ? JSON.parse(row.rejected) : row.rejected) as RejectedRecord[],
  };
}

export async function setBatchOutcome(
  db: Db,
  carDataId: string,
  seq: number,
  accepted: number,
  rejected: RejectedRecord[],
) {
  await db
    .updateTable('device_batches')
    .set({ accepted, rejected: JSON.stringify(rejected) })
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .execute();
}

/** Engine log rows of executed commands (few: one per command result). */
export async function insertEngineRows(db: Db, rows: Insertable<EngineLogsTable>[]) {
  if (rows.length) await db.insertInto('engine_logs').values(rows).execute();
}

/** Drops batch receipts older than `days`, a slice at a time so no lock is held long. Returns how many went. */
export async function pruneBatchReceipts(db: Db, days: number, slice = 10_000): Promise<number> {
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const result = await sql`DELETE FROM device_batches WHERE ctid IN (
      SELECT ctid FROM device_batches WHERE received_at < now() - make_interval(days => ${days}) LIMIT ${slice})`.execute(
      db,
    );
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < slice) break;
  }
  return total;
}
