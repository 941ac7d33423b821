import { retryDelayMs } from '../outbox/index.js';

/**
 * Push deliveries retry as mail and webhooks do (docs/notifications.md): 1 min × 2^(n-1), at most
 * 6 hours, 12 attempts. A claimed delivery is leased to its instance for 2 minutes (a call times out
 * in 10 s). A message the push service has not delivered within TTL is dropped by it.
 */
export const PUSH_MAX_ATTEMPTS = 12;
export const PUSH_CLAIM_LEASE_MS = 2 * 60_000;
export const PUSH_TIMEOUT_MS = 10_000;
export const PUSH_TTL_SECONDS = 24 * 3600;
export const pushRetryDelayMs = retryDelayMs;
