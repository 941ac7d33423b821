import type { DeviceBatch, TelemetryState } from '@fleet/contract';
import { poolOf, type Db } from '../db/database.js';
import { reportGatewayCommit } from '../ops/instruments.js';
import type { AuthedDevice } from './device-auth.js';
import type { IngestFollower } from './ingest-follower.js';
import {
  commitBatches,
  prepareBatch,
  type BatchSource,
  type IngestOutcome,
  type PreparedBatch,
} from './ingest.service.js';

export interface GroupCommitOptions {
  /** What follows a stored position (ingest-follower.ts): the notification judgement. */
  followers?: readonly IngestFollower[];
  /** Transactions in flight at once (each holds one pooled connection). */
  concurrency?: number;
  /** Most batches in one transaction. */
  maxBatches?: number;
  /** Most records in one transaction (a batch larger than this goes alone). */
  maxRecords?: number;
  /** Told the merged latest states after each commit (the live push); its failure is only logged. */
  committed?: (states: TelemetryState[]) => Promise<void>;
  /**
   * Each record is stored once by its content, whatever batch carries it (keepNewRecords): for the
   * binary protocols, whose frames regroup records a terminal sends again. One more statement a group.
   */
  recordKeys?: boolean;
}

interface Waiting {
  prepared: PreparedBatch;
  resolve(outcome: IngestOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit for the device gateway. Each batch is answered only after the
 * transaction that stored it (with its notification judgement) committed,
 * exactly as when it had one of its own; but the batches that arrive while
 * earlier ones are being written share the next transaction, so a thousand
 * terminals cost a few statements per group instead of eight round trips
 * each. Nothing waits on a timer: with a free slot a batch is written at once.
 *
 * A group holds at most one batch per terminal, and a terminal's next batch
 * waits until its previous one committed (its order, its motion state). A
 * batch with command results is written in a group of its own (it settles the
 * commands' rows). Every group, of one or many, goes the one path
 * (commitBatches). When a group
 * fails, each of its batches is tried again alone, so one bad batch cannot
 * fail the others; whatever fails is answered with its error and nothing of
 * it is stored.
 */
export class GroupCommit {
  private readonly queue: Waiting[] = [];
  /** Terminals with a batch being written. */
  private readonly busy = new Set<string>();
  private running = 0;
  /** Transactions committed and the batches they held (for tests and diagnosis). */
  readonly stats = { transactions: 0, batches: 0 };
  private readonly concurrency: number;
  private readonly maxBatches: number;
  private readonly maxRecords: number;
  /** PostgreSQL: a group's log rows go in by COPY (PGlite has no COPY FROM STDIN: one unnest INSERT per table). */
  private readonly copy: boolean;

  constructor(
    private readonly db: Db,
    private readonly opts: GroupCommitOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? 2;
    this.maxBatches = opts.maxBatches ?? 100;
    this.maxRecords = opts.maxRecords ?? 10_000;
    this.copy = poolOf(db) !== undefined;
  }

  /** Stores a batch (idempotent on IMEI + seq) and answers once it is committed. */
  ingest(device: AuthedDevice, batch: DeviceBatch, now = new Date(), source?: BatchSource): Promise<IngestOutcome> {
    const prepared = prepareBatch(device, batch, now, source);
    return new Promise<IngestOutcome>((resolve, reject) => {
      this.queue.push({ prepared, resolve, reject });
      this.pump();
    });
  }

  /** Batches waiting for a transaction (not yet being written). */
  get waiting(): number {
    return this.queue.length;
  }

  private pump() {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const group = this.take();
      if (group.length === 0) return;
      this.running++;
      for (const w of group) this.busy.add(w.prepared.device.car_data_id);
      void this.write(group).finally(() => {
        this.running--;
        for (const w of group) this.busy.delete(w.prepared.device.car_data_id);
        this.pump();
      });
    }
  }

  /** The oldest batches that may go together; the rest keep their place in the queue. */
  private take(): Waiting[] {
    const group: Waiting[] = [];
    const imeis = new Set<string>();
    let records = 0;
    let i = 0;
    while (i < this.queue.length && group.length < this.maxBatches) {
      const w = this.queue[i]!;
      const imei = w.prepared.device.car_data_id;
      const size = w.prepared.records.length;
      const free = !this.busy.has(imei) && !imeis.has(imei);
      const alone = w.prepared.results.length > 0;
      if (!free || (group.length > 0 && (alone || records + size > this.maxRecords))) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      group.push(w);
      imeis.add(imei);
      records += size;
      if (alone) break;
    }
    return group;
  }

  /** The group in a transaction of its own, in IMEI order: rows of several terminals are locked in the same order by every transaction. */
  private commit(sorted: readonly Waiting[], started: () => void): Promise<IngestOutcome[]> {
    return this.db.transaction().execute((trx) => {
      started();
      return commitBatches(
        trx,
        sorted.map((w) => w.prepared),
        { followers: this.opts.followers, copy: this.copy, recordKeys: this.opts.recordKeys },
      );
    });
  }

  private async write(group: Waiting[]): Promise<void> {
    const sorted = [...group].sort((a, b) => compare(a.prepared.device.car_data_id, b.prepared.device.car_data_id));
    let started = false;
    try {
      const outcomes = await this.commit(sorted, () => (started = true));
      this.stats.transactions++;
      this.stats.batches += sorted.length;
      reportGatewayCommit({ batches: sorted.length, records: countRecords(sorted) });
      sorted.forEach((w, i) => w.resolve(outcomes[i]!));
      this.tell(outcomes);
    } catch (err) {
      // No connection (the database is down or the pool timed out): trying each alone would only ask for more.
      if (sorted.length === 1 || !started) {
        for (const w of sorted) w.reject(err);
        return;
      }
      // One bad batch cannot fail the others: each is tried again in a group of its own.
      await Promise.all(sorted.map((w) => this.write([w])));
    }
  }

  private tell(outcomes: readonly IngestOutcome[]) {
    const states = outcomes.flatMap((o) => (o.state ? [o.state] : []));
    if (states.length && this.opts.committed) void this.opts.committed(states).catch(() => undefined);
  }
}

const countRecords = (group: readonly Waiting[]) => group.reduce((n, w) => n + w.prepared.records.length, 0);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
