import type { DeviceRecord } from '@fleet/contract';
import type { RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';

/** A batch as stored, for what follows it. */
export interface StoredPositions {
  carDataId: string;
  /** Its records to log (no command results), with their times (epoch ms) at the same index. */
  records: readonly DeviceRecord[];
  times: readonly number[];
  /** When it was received. */
  now: Date;
  /** The terminal's latest position once the batch was stored. */
  lastPosition: { lat: number; lng: number } | null;
}

/**
 * What follows a stored position: the one interface between ingest and the rules that judge what
 * came in (the notifications with their areas and zones today; anything judged per stored batch
 * plugs in the same way). Ingest knows nothing else of them.
 *
 * A follower runs in the transaction that stored the batches, once per commit, for the batches that
 * were stored (a repeated batch is not followed again). It may read what it needs in the storing
 * statement itself, to save round trips: `read` gives CTEs over the terminals' ids (`ids`, a
 * text[]) and one jsonb value per terminal (`imei`, the terminal's id in the outer query), handed
 * back to `follow` by terminal.
 */
export interface IngestFollower {
  read?: {
    ctes(ids: RawBuilder<unknown>): RawBuilder<unknown>[];
    value(imei: RawBuilder<unknown>): RawBuilder<unknown>;
  };
  follow(trx: Db, stored: readonly StoredPositions[], read: ReadonlyMap<string, unknown>): Promise<void>;
}
