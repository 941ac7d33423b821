import { Readable } from 'node:stream';
import {
  CSV_BOM,
  LOG_EXPORT_PATH,
  LogExportQuery,
  csvRow,
  exportFileStamp,
  fieldErrors,
  logExportHeader,
  logExportRow,
  telemetryMessages,
  type LogKind,
} from '@fleet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { restBetweenReads } from '../db/rest-between-reads.js';
import { withAddresses } from '../geocode/addresses.js';
import type { AppContext } from '../http/context.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { accessOf } from '../access/route.js';
import { copyable, copyStatement, copyTextToCsv, startCopy } from './export.copy.js';
import { createExportGate } from './export-gate.js';
import { findLogBatch, ShortWindows, type LogFilter } from './log.repository.js';

/**
 * Rows per database read while streaming on the row path. On PGlite a read holds the server's one thread for a
 * time per row plus a fixed cost per statement, several times longer for the first reads after a start
 * (catalog and pages cold): the read's length is the longest other calls wait (db/rest-between-reads.ts; bench/README.md, Measurements behind the code:
 * The embedded database).
 */
export const EXPORT_BATCH = 250;

const head = (kind: LogKind) => CSV_BOM + csvRow(logExportHeader(kind));

/**
 * The row path (PGlite, and the JSON logs on PostgreSQL): keyset-paged reads,
 * newest first, worded by the contract's logExportRow and formatted by csvRow. Readable.from reads up to 16 batches
 * ahead of the socket, so the next read overlaps the download; between two
 * reads it rests (db/rest-between-reads.ts), so on PGlite other calls run in between.
 */
async function* csvLines(
  ctx: AppContext,
  kind: LogKind,
  f: LogFilter,
  first: Record<string, unknown>[],
  embedded: boolean,
  hints: ShortWindows,
) {
  yield head(kind);
  let rows = first;
  let readMs = 0; // the first batch was read by the handler: a turn of the event loop before the second
  while (rows.length) {
    // The GPS log's 住所 from the geocode cache (the COPY path joins the same, export.copy.ts).
    const lines = kind === 'gps' ? await withAddresses(ctx.db, rows) : rows;
    yield lines.map((r) => csvRow(logExportRow(kind, r))).join('');
    if (rows.length < EXPORT_BATCH) return;
    await restBetweenReads(embedded, readMs);
    const last = rows.at(-1)!;
    const before = { id: Number(last.id), at: last.recorded_at as Date };
    const started = performance.now();
    rows = (await findLogBatch(ctx.db, kind, f, before, EXPORT_BATCH, hints)) as Record<string, unknown>[];
    readMs = performance.now() - started;
  }
}

/** `embedded`: the database is PGlite, in this process (rests between reads, see db/rest-between-reads.ts). */
export const rowPathCsv = (
  ctx: AppContext,
  kind: LogKind,
  f: LogFilter,
  first: Record<string, unknown>[],
  embedded = true,
  hints = new ShortWindows(),
): Readable => Readable.from(csvLines(ctx, kind, f, first, embedded, hints));

/** The COPY path (PostgreSQL): the database writes the lines, see export.copy.ts. */
export async function copyPathCsv(ctx: AppContext, kind: LogKind, f: LogFilter): Promise<Readable> {
  const { rows, abandon } = await startCopy(ctx.db, copyStatement(kind, f));
  const csv = copyTextToCsv(Buffer.from(head(kind)));
  rows.on('error', (err) => csv.destroy(err));
  // The download was cancelled (or failed): read the rest of the COPY so its connection goes back clean.
  csv.once('close', () => {
    if (!rows.readableEnded) abandon();
  });
  return rows.pipe(csv);
}

/**
 * CSV download of one log (docs/product.md §4): GET with the query in the URL or POST
 * with it as JSON, the token in the Authorization header either way. Streams;
 * 204 with no body when the log (in the range) is empty.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: AppContext) {
  const byCopy = (kind: LogKind) => Boolean(ctx.config.DATABASE_URL) && copyable(kind);
  const enter = createExportGate();
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await accessOf(ctx, request);
    const parsed = LogExportQuery.safeParse(request.method === 'POST' ? (request.body ?? {}) : request.query);
    if (!parsed.success) throw badRequest(undefined, fieldErrors(parsed.error));
    const { kind, ...query } = parsed.data;
    await access.see('car_data_id', query.car_data_id);
    // Only the time the terminal was on the company's vehicles (docs/security.md).
    const filter: LogFilter = { ...query, windows: await access.windows(query.car_data_id) };

    const leave = enter(access.account_id);
    if (!leave) throw tooManyRequests(telemetryMessages.exportBusy);
    let body: Readable;
    try {
      const copy = byCopy(kind);
      // A log with few rows a day would read each batch in two statements (log.repository.ts): the first batch
      // tells the rest.
      const hints = new ShortWindows();
      const first = (await findLogBatch(ctx.db, kind, filter, null, copy ? 1 : EXPORT_BATCH, hints)) as Record<
        string,
        unknown
      >[];
      reply.header('cache-control', 'no-store');
      if (first.length === 0) {
        leave();
        return reply.status(204).send();
      }
      body = copy
        ? await copyPathCsv(ctx, kind, filter)
        : rowPathCsv(ctx, kind, filter, first, !ctx.config.DATABASE_URL, hints);
    } catch (err) {
      leave();
      throw err;
    }
    // Read to the end, failed or cancelled: the account may export again. A HEAD answer or a client
    // that hangs up never reads the body: the response's close releases it and stops the read.
    body.once('end', leave).once('close', leave);
    reply.raw.once('close', () => {
      leave();
      if (!body.readableEnded) body.destroy();
    });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${kind}_log_${filter.car_data_id}_${exportFileStamp(new Date())}.csv"`,
      )
      .send(body);
  };
  app.get(LOG_EXPORT_PATH, handler);
  app.post(LOG_EXPORT_PATH, handler);
}
