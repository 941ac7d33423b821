/**
 * The retry policy every outbox shares (docs/notifications.md): after the n-th failed attempt the next
 * one waits 1 minute × 2^(n-1), at most 6 hours. How many attempts a channel makes and how long a claim
 * is leased are the channel's own (mail/mail-policy.ts, webhooks/webhook-policy.ts, push/push-policy.ts).
 */
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 6 * 3600_000;

export const retryDelayMs = (attempts: number): number =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
