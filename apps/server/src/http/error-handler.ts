import { errorMessages, type ApiError } from '@fleet/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/** Connection-level failures: the database is down or restarting, not a bug of ours. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
]);
const isDatabaseDown = (e: unknown) => {
  const err = e as { code?: string; message?: string };
  return (
    (err.code !== undefined && UNAVAILABLE_CODES.has(err.code)) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
      err.message ?? '',
    )
  );
};

const clientMessage = (e: FastifyError): string => {
  if (e.statusCode === 413) return '送信データが大きすぎます。';
  if (e.statusCode === 415) return 'JSON形式（application/json）で送信してください。';
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) return 'JSONの形式が不正です。';
  return errorMessages.badRequest;
};

/** Maps every error to `{ code, message, errors? }`; 5xx are logged and never expose internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler<FastifyError | AppError>((error, request, reply) => {
    if (error instanceof AppError) {
      const body: ApiError = {
        code: error.code,
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
      };
      return reply.status(error.statusCode).send(body);
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const body: ApiError = { code: 'BAD_REQUEST', message: clientMessage(error as FastifyError) };
      return reply.status(status === 404 ? 400 : status).send(body);
    }
    if (isDatabaseDown(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send({ code: 'UNAVAILABLE', message: errorMessages.unavailable } satisfies ApiError);
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: errorMessages.internal } satisfies ApiError);
  });
}
