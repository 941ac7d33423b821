import { errorMessages } from '@fleet/contract/messages';

/**
 * A failed call: HTTP status, the server's stable code, its Japanese message and per-field errors.
 * Kept apart from the API client (and so from zod) because the first screen needs it too.
 */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/** The message to show for a failed call, falling back to the screen's own wording. */
export const messageOf = (error: unknown, fallback: string = errorMessages.generic) =>
  error instanceof ApiClientError && error.message ? error.message : fallback;
