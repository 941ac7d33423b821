import { errorMessages, type ErrorCode } from '@fleet/contract';

/** An error the API answers with as-is: status, stable code, Japanese message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string = errorMessages.badRequest, errors?: Record<string, string>) =>
  new AppError(400, 'BAD_REQUEST', message, errors);
export const unauthorized = (message: string = errorMessages.unauthorized) =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string = errorMessages.forbidden) => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: string = errorMessages.notFound) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string = errorMessages.conflict, errors?: Record<string, string>) =>
  new AppError(409, 'CONFLICT', message, errors);
export const tooManyRequests = (message: string) => new AppError(429, 'TOO_MANY_REQUESTS', message);
