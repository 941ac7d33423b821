/**
 * The delivery machinery every outbox table shares (mail, webhook deliveries, push deliveries): the
 * claim rule of a table (`defineOutbox`), the claim/send loop (`OutboxRunner`), one outbound HTTP POST
 * (`postOnce`), the retry policy and the clock tests replace. A channel keeps its own table, its own
 * repository and its dispatcher; docs/architecture.md, "A new delivery channel".
 */
export { systemClock, type Clock } from './clock.js';
export {
  defineOutbox,
  inClaimOrder,
  type Outbox,
  type OutboxRules,
  type OutboxStatus,
  type OutboxTableName,
} from './claim.js';
export { OutboxRunner, type DispatchResult, type OutboxSteps } from './runner.js';
export {
  postOnce,
  systemResolver,
  type AddressGuard,
  type HttpAttempt,
  type ResolvedAddress,
  type Resolver,
} from './http-attempt.js';
export { RETRY_BASE_MS, RETRY_MAX_MS, retryDelayMs } from './retry-policy.js';
