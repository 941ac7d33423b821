import {
  CSV_EOL,
  csvField,
  logExportColumns,
  logExportSpec,
  type LogExportColumn,
  type LogKind,
} from '@fleet/contract';
import { type CompiledQuery } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { Db } from '../db/database.js';
import { cellAddressJoin } from '../geocode/addresses.js';
import { withinWindowsText } from '../access/terminal-time.js';
import { logTables, type LogFilter } from './log.repository.js';
import { logOrder, rangeText } from './log-order.js';

/**
 * The CSV export on PostgreSQL: `COPY (SELECT <one CSV line per row>) TO
 * STDOUT`, so the server writes the file and Node only passes its bytes on
 * (no row objects, no strings per field: the memory of a million-row export
 * stays flat: bench/README.md, "5 export"). The SQL below writes each field exactly as
 * `csvField` in `packages/contract/src/rules/csv.ts` does after the row has
 * been read through `pg` (the rules' owner: the export of PGlite, of JSON
 * columns, and the console's own files): test/telemetry-export.test.ts
 * compares both byte for byte on awkward data.
 */

/** How a column is written. `json` columns (sensor readings, OBD2 pids) stay on the row path: JSON.stringify's output cannot be rebuilt in SQL. */
type ColumnType = 'time' | 'text' | 'int' | 'float';
const columnTypes: { [K in LogKind]?: Record<(typeof logExportColumns)[K][number], ColumnType> } = {
  gps: {
    recorded_at: 'time',
    lat: 'float',
    lng: 'float',
    speed: 'float',
    heading: 'float',
    satellites: 'int',
    accuracy: 'float',
    address: 'text',
  },
  engine: {
    recorded_at: 'time',
    running: 'text',
    engine_line: 'text',
    command: 'int',
    command_id: 'int',
    account_id: 'text',
  },
  connection: { recorded_at: 'time', state: 'text' },
  battery: { recorded_at: 'time', voltage: 'float', percentage: 'float' },
  error: { recorded_at: 'time', error_type: 'text', status_code: 'int', detail: 'text' },
};

/** Whether this log can be exported by COPY (every column is one of the types above). */
export const copyable = (kind: LogKind) => columnTypes[kind] !== undefined;

const field: Record<ColumnType, (c: string) => string> = {
  // exportTime of the contract: the UTC instant + 9 h as YYYY/MM/DD HH:mm:ss, fractions dropped.
  time: (c) => `to_char((${c} AT TIME ZONE 'UTC') + interval '9 hours', 'YYYY/MM/DD HH24:MI:SS')`,
  int: (c) => `coalesce(${c}::text, '')`,
  // String(Number(text)): PostgreSQL's shortest digits, which JS prints the same way except
  // where it chooses another notation (JS: exponent below 1e-6 and from 1e21, without leading
  // zeros in it; PostgreSQL: below 1e-4 and from 1e6 (real) or 1e15 (double) up), -0 → 0, NaN and
  // Infinity → '' (csvField writes no non-finite number).
  float: (c) => {
    const t = `${c}::text`;
    return `CASE WHEN ${c} IS NULL OR ${t} IN ('NaN', 'Infinity', '-Infinity') THEN ''
      WHEN ${t} = '-0' THEN '0'
      WHEN strpos(${t}, 'e') = 0 THEN ${t}
      WHEN abs(${t}::numeric) >= 1e-6 AND abs(${t}::numeric) < 1e21 THEN ${t}::numeric::text
      ELSE regexp_replace(${t}, 'e([+-])0*', 'e\\1') END`;
  },
  // A leading = + - @ tab CR or LF gets a ' (CSV injection); a field holding " , CR or LF is
  // quoted with its quotes doubled (RFC 4180). NULL is empty.
  text: (c) => {
    const n = `CASE WHEN left(${c}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r', E'\\n') THEN '''' || ${c} ELSE ${c} END`;
    return `CASE WHEN ${c} IS NULL THEN '' WHEN ${c} ~ E'[",\\r\\n]' THEN '"' || replace(${n}, '"', '""') || '"' ELSE ${n} END`;
  },
};

/** A time as a timestamptz literal (the windows of the reader's company, terminal-time.ts). */
const at = (d: Date) => `${pg.escapeLiteral(d.toISOString())}::timestamptz`;

/** exportCell of the contract: a column's labels (and `otherwise`) in place of the stored values, written as csvField writes them. */
function labelled(col: LogExportColumn, type: ColumnType): string {
  if (!col.labels && col.otherwise === undefined) return field[type](col.key);
  const c = col.key;
  const lit = (label: string) => pg.escapeLiteral(csvField(label));
  const whens = Object.entries(col.labels ?? {}).map(
    ([value, label]) => ` WHEN ${c}::text = ${pg.escapeLiteral(value)} THEN ${lit(label)}`,
  );
  const rest = col.otherwise === undefined ? field[type](c) : lit(col.otherwise);
  return `CASE WHEN ${c} IS NULL OR ${c}::text = '' THEN ''${whens.join('')} ELSE ${rest} END`;
}

/** The COPY statement of one export: its CSV lines (without line ends), newest first as on screen. COPY takes no parameters, so the values are quoted literals. */
export function copyStatement(kind: LogKind, f: LogFilter): string {
  const types = columnTypes[kind] as Record<string, ColumnType> | undefined;
  if (!types) throw new Error(`${kind} logs are not exported by COPY`);
  const line = (logExportSpec[kind] as readonly LogExportColumn[])
    .map((c) => labelled(c, types[c.key]!))
    .join(` || ',' || `);
  const order = logOrder(logTables[kind]);
  const range = f.from !== null && f.to !== null ? ` AND ${rangeText(order, f.from, f.to, pg.escapeLiteral)}` : '';
  // The GPS log's 住所: its cell's address from the geocode cache, joined (never looked up here).
  const join = kind === 'gps' ? cellAddressJoin() : '';
  return `COPY (SELECT ${line} FROM ${logTables[kind]}${join} WHERE car_data_id = ${pg.escapeLiteral(f.car_data_id)}${range}${withinWindowsText(f.windows, at)} ORDER BY ${order.newestFirstText}) TO STDOUT`;
}

const BACKSLASH = 0x5c;
const LF = 0x0a;
/** What follows a backslash in COPY's text format (the escapes it writes), as the byte it stands for. */
const unescaped: Record<number, number> = {
  0x62: 0x08,
  0x66: 0x0c,
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
  0x76: 0x0b,
  [BACKSLASH]: BACKSLASH,
};
const EOL = Buffer.from(CSV_EOL);

/**
 * `head` (the byte-order mark and header row), then COPY's text format back to
 * the lines SQL built: its escapes (\r \n \t \\ …, only in quoted fields)
 * undone, each row's LF made CRLF. One Buffer out per chunk in; a backslash at
 * the end of a chunk waits for the next.
 */
export function copyTextToCsv(head: Buffer): Transform {
  let escaped = false;
  const csv = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const out = Buffer.allocUnsafe(chunk.length * 2);
      let o = 0;
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!;
        if (escaped) {
          out[o++] = unescaped[b] ?? b;
          escaped = false;
          from = i + 1;
        } else if (b === BACKSLASH || b === LF) {
          o += chunk.copy(out, o, from, i);
          if (b === LF) o += EOL.copy(out, o);
          else escaped = true;
          from = i + 1;
        }
      }
      o += chunk.copy(out, o, from, chunk.length);
      done(null, out.subarray(0, o));
    },
  });
  csv.push(head);
  return csv;
}

/**
 * Starts the COPY on a connection of the pool, held until every row has been
 * read (the pool's limits and connect timeout apply as to any query: no free
 * connection rejects). Errors of the statement itself come out of the stream.
 *
 * A COPY cannot be stopped half way without breaking its connection, so when
 * the reader goes away the rest is read and dropped, and the connection goes
 * back clean: call `abandon` then.
 */
export function startCopy(db: Db, statement: string): Promise<{ rows: Readable; abandon(): void }> {
  return new Promise((resolve, reject) => {
    db.connection()
      .execute(async (conn) => {
        const copy = copyTo(statement);
        const finished = new Promise<void>((ok) => {
          copy.once('end', ok);
          copy.on('error', () => ok());
        });
        // pg runs any object with submit() as a query; Kysely hands `sql` to client.query as it is.
        await conn.executeQuery({ sql: copy, parameters: [] } as unknown as CompiledQuery);
        resolve({
          rows: copy,
          abandon: () => {
            copy.unpipe();
            copy.resume();
          },
        });
        await finished;
      })
      .catch(reject);
  });
}
