/**
 * Retry policy of the outbox (docs/notifications.md): after the n-th failed
 * attempt the next one waits 1 minute × 2^(n-1), at most 6 hours; after 12
 * attempts (the last about 20 hours after the first) the mail is left as failed.
 */
export const MAIL_MAX_ATTEMPTS = 12;
export const MAIL_RETRY_BASE_MS = 60_000;
export const MAIL_RETRY_MAX_MS = 6 * 3600_000;
/** How long a claimed mail is reserved for the instance sending it. */
export const MAIL_CLAIM_LEASE_MS = 10 * 60_000;

export const retryDelayMs = (attempts: number): number =>
  Math.min(MAIL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), MAIL_RETRY_MAX_MS);
