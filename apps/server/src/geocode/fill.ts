import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.js';
import { cellCentre } from './cells.js';
import { claimCell, discoverCells, releaseCell, saveAnswer, saveFailure, takeSlot } from './geocode.repository.js';
import { ProviderFailure, type ReverseGeocoder } from './provider.js';

/**
 * The geocode job (docs/geocoding.md): outside ingest and its transaction, it looks up the cells waiting in
 * the cache, one request per slot of the deployment's rate limit (geocode_limiter: every instance takes its
 * slots from the same row), each request given up after the provider's timeout. A failure pauses every
 * instance for a back-off that doubles with each failure in a row, and the cell waits; after MAX_ATTEMPTS it is
 * left without an address. Nothing here ever fails a read: addresses are simply null until found.
 */

export interface FillOptions {
  reverse: ReverseGeocoder;
  /** Requests per second for the whole deployment. */
  rate: number;
  /** How long one run may go on taking slots. */
  budgetMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  retryMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

export const MAX_ATTEMPTS = 5;
const LEASE_MS = 60_000;
const BUDGET_MS = 3_000;
/** How far ahead a run takes a slot: a slot further off is left to the next run. */
const HORIZON_MS = 1_000;

/** Looks up waiting cells until the run's budget is spent or none is due; the lookups made. */
export async function fillAddresses(db: Db, o: FillOptions): Promise<number> {
  const started = Date.now();
  const budget = o.budgetMs ?? BUDGET_MS;
  const interval = 1000 / o.rate;
  let done = 0;
  while (Date.now() - started < budget) {
    const cell = await claimCell(db, LEASE_MS);
    if (!cell) break;
    const slot = await takeSlot(db, interval, HORIZON_MS);
    if (!slot) {
      await releaseCell(db, cell);
      break;
    }
    if (slot.waitMs > 0) await sleep(slot.waitMs);
    const centre = cellCentre(cell);
    try {
      await saveAnswer(db, cell, await o.reverse.reverse(centre.lat, centre.lng));
      done++;
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      o.log?.warn({ err: err.message }, 'reverse geocoder failed: backing off');
      await saveFailure(db, cell, {
        maxAttempts: MAX_ATTEMPTS,
        retryMs: o.retryMs ?? 60_000,
        baseMs: o.backoffBaseMs ?? 2_000,
        maxMs: o.backoffMaxMs ?? 300_000,
      });
      break;
    }
  }
  return done;
}

/** Positions stored lately (latest states, stops and trips of two days) become cells to look up. */
export const DISCOVER_RECENT_MS = 2 * 86_400_000;
export const discoverAddresses = (db: Db) => discoverCells(db, DISCOVER_RECENT_MS);
