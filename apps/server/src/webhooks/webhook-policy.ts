import { retryDelayMs } from '../outbox/index.js';

/**
 * Webhook deliveries retry as mail does (docs/notifications.md): 1 min × 2^(n-1), at most 6 hours,
 * 12 attempts; a claimed delivery is leased to its instance for 2 minutes (a call times out in 10 s).
 */
export const WEBHOOK_MAX_ATTEMPTS = 12;
export const WEBHOOK_CLAIM_LEASE_MS = 2 * 60_000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const webhookRetryDelayMs = retryDelayMs;
