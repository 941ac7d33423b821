/**
 * Mail's outbox rules (docs/notifications.md): it retries on the shared policy (outbox/retry-policy.ts);
 * after 12 attempts (the last about 20 hours after the first) a mail is left as failed.
 */
export const MAIL_MAX_ATTEMPTS = 12;
/** How long a claimed mail is reserved for the instance sending it. */
export const MAIL_CLAIM_LEASE_MS = 10 * 60_000;
