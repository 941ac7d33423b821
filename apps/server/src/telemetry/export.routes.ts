import { Readable } from 'node:stream';
import { CSV_BOM, LOG_EXPORT_PATH, LogExportQuery, csvRow, fieldErrors, logExportColumns, type LogKind } from '@fleet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';
import { badRequest, notFound } from '../http/errors.js';
import { authenticate } from '../http/route.js';
import { isVisible } from '../scope/visibility.js';
import { findLogBatch, type LogFilter } from './log.repository.js';

/** Rows per database read while streaming. */
const BATCH = 5000;

/** 2026-11-23T10:15:00.000+09:00: unambiguous, and the hour a Japanese reader expects. */
const jst = (d: Date | string) => new Date(new Date(d).getTime() + 9 * 3600_000).toISOString().replace('Z', '+09:00');

const cells = (row: Record<string, unknown>, columns: readonly string[]) =>
  columns.map((c) => (c === 'recorded_at' ? jst(row[c] as Date) : row[c]));

async function* csvLines(ctx: AppContext, kind: LogKind, f: LogFilter, first: Record<string, unknown>[]) {
  const columns = logExportColumns[kind];
  yield CSV_BOM + csvRow(columns);
  let rows = first;
  while (rows.length) {
    yield rows.map((r) => csvRow(cells(r, columns))).join('');
    if (rows.length < BATCH) return;
    rows = (await findLogBatch(ctx.db, kind, f, Number(rows.at(-1)!.id), BATCH)) as Record<string, unknown>[];
  }
}

/**
 * CSV download of one log (SPEC.md §4): GET with the query in the URL or POST
 * with it as JSON, the token in the Authorization header either way. Streams
 * in batches; 204 with no body when the log (in the range) is empty.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: AppContext) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = await authenticate(ctx, request);
    const parsed = LogExportQuery.safeParse(request.method === 'POST' ? (request.body ?? {}) : request.query);
    if (!parsed.success) throw badRequest(undefined, fieldErrors(parsed.error));
    const { kind, ...filter } = parsed.data;
    if (!(await isVisible(ctx.db, actor, 'car_data_id', filter.car_data_id))) throw notFound();

    const first = (await findLogBatch(ctx.db, kind, filter, null, BATCH)) as Record<string, unknown>[];
    reply.header('cache-control', 'no-store');
    if (first.length === 0) return reply.status(204).send();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${kind}_log_${filter.car_data_id}.csv"`)
      .send(Readable.from(csvLines(ctx, kind, filter, first)));
  };
  app.get(LOG_EXPORT_PATH, handler);
  app.post(LOG_EXPORT_PATH, handler);
}
