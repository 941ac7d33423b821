import {
  type DeviceRecord,
  EARLIEST_RECORD_TIME,
  MAX_CLOCK_SKEW_MS,
  deviceProtocolMessages as msg,
  parseDeviceRecord,
  type DeviceBatch,
  type DeviceBatchResponse,
  type RejectedRecord,
  type TelemetryState,
} from '@fleet/contract';
import type { Db } from '../db/database.js';
import { findUnstorableInput, isStorableInput } from '../http/input-guard.js';
import { acceptedAsIs } from './record-check.js';
import { mergeLatestState } from '../telemetry/latest-state.repository.js';
import { applyCommandResults, type IndexedResult } from '../commands/command-results.js';
import { takePendingCommands } from '../commands/terminal-commands.repository.js';
import type { AuthedDevice } from './device-auth.js';
import { createHash } from 'node:crypto';
import type { IngestFollower, StoredPositions } from './ingest-follower.js';
import {
  claimRecordKeys,
  findBatch,
  insertEngineRows,
  setBatchOutcome,
  storeAndRead,
  type NewBatch,
  type StoredAndRead,
} from './ingest.repository.js';
import { foldLatest } from '../telemetry/latest-patch.js';

export interface IngestOutcome {
  response: DeviceBatchResponse;
  /** The merged latest state, for the live push; null for a repeated batch. */
  state: TelemetryState | null;
}

/** A time as toISOString writes it ('2026-11-26T09:38:12.000Z'); with the contract's check passed, it is already what we store. */
const isCanonicalTime = (t: string) => t.length === 24 && t.charCodeAt(23) === 0x5a && t.charCodeAt(19) === 0x2e;

/** How a batch's records came: `escapeFree`, parsed from a JSON body without a `\u` escape (json-body.ts). */
export interface BatchSource {
  escapeFree?: boolean;
}

/**
 * Checks every record on its own: valid ones go on, invalid ones come back
 * with a reason. A storable record the compiled check accepts as it is (the
 * usual case, record-check.ts) goes on as it is; any other is checked by the
 * contract's schema (parseDeviceRecord), so each refusal names its first
 * problem as it always did. The strings of an escape-free body cannot be
 * unstorable: only its numbers and depth are looked at then.
 */
export function sortRecords(records: readonly unknown[], now: Date, source: BatchSource = {}) {
  const valid: { index: number; record: DeviceRecord; time: number }[] = [];
  const rejected: RejectedRecord[] = [];
  const latestAllowed = now.getTime() + MAX_CLOCK_SKEW_MS;
  const strings = !source.escapeFree;
  for (let index = 0; index < records.length; index++) {
    const input = records[index];
    const storable = isStorableInput(input, 0, strings);
    let record = storable ? acceptedAsIs(input) : undefined;
    if (!record) {
      const unstorable = storable ? undefined : findUnstorableInput(input);
      if (unstorable !== undefined) {
        rejected.push({ index, reason: `${unstorable}: ${msg.unstorable}` });
        continue;
      }
      const parsed = parseDeviceRecord(input);
      if (!parsed.ok) {
        rejected.push({ index, reason: parsed.reason });
        continue;
      }
      record = parsed.record;
    }
    const time = Date.parse(record.time);
    if (time > latestAllowed) rejected.push({ index, reason: `time: ${msg.futureTime}` });
    else if (!(time >= EARLIEST_RECORD_TIME)) rejected.push({ index, reason: `time: ${msg.pastTime}` });
    else {
      // In UTC: PostgreSQL refuses offsets beyond ±15:59 that ISO 8601 allows. A copy: the input is left as it came.
      if (!isCanonicalTime(record.time)) record = { ...record, time: new Date(time).toISOString() };
      valid.push({ index, record, time });
    }
  }
  return { valid, rejected };
}

/** A batch checked record by record, ready to store. */
export interface PreparedBatch {
  device: AuthedDevice;
  batch: DeviceBatch;
  /** When it was received. */
  now: Date;
  valid: { index: number; record: DeviceRecord }[];
  rejected: RejectedRecord[];
  /** Command results: they settle the commands' rows (a group commit writes such a batch on its own). */
  results: IndexedResult[];
  /** Records to log. */
  records: DeviceRecord[];
  /** Their times (epoch ms), at the same index: read once here, for the latest state and the judgement. */
  times: number[];
}

export function prepareBatch(device: AuthedDevice, batch: DeviceBatch, now: Date, source?: BatchSource): PreparedBatch {
  const { valid, rejected } = sortRecords(batch.records, now, source);
  const results: IndexedResult[] = [];
  const records: DeviceRecord[] = [];
  const times: number[] = [];
  for (const v of valid) {
    if (v.record.type === 'command_result') results.push(v as IndexedResult);
    else {
      records.push(v.record);
      times.push(v.time);
    }
  }
  return { device, batch, now, valid, rejected, results, records, times };
}

/**
 * A record's own seq, for terminals whose frames regroup records (Teltonika, GT06: a record not
 * acknowledged is sent again after a reconnection, alone, beside others, or in another codec): 48 bits
 * of the SHA-256 of the record (type, time and every value, keys in order) and the kind 9, the low 4
 * bits the binary protocols' seqs keep for their kinds (tcp/link-gateway.ts KIND: 2-8). The same record
 * has the same seq whatever frame carries it, so it is stored once.
 */
export const RECORD_KIND = 9;
export const recordSeq = (record: DeviceRecord) =>
  createHash('sha256').update(canonicalJson(record)).digest().readUIntBE(0, 6) * 16 + RECORD_KIND;

/** JSON with every object's keys in order, so equal records give equal text whatever built them. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The batches with only the records stored by no batch before (nor earlier in the same batch): their
 * record seqs are claimed in device_batches in the caller's transaction, one statement for all the
 * batches, so they are claimed exactly when the records are stored. The batch's own answer is unchanged
 * (a terminal's frame is acknowledged whole); only its logs, latest state and judgement lose the repeats.
 */
export async function keepNewRecords(db: Db, batches: readonly PreparedBatch[]): Promise<PreparedBatch[]> {
  const seqs = batches.map((p) => p.records.map(recordSeq));
  const keys = batches.flatMap((p, i) => [...new Set(seqs[i])].map((key) => ({ imei: p.device.car_data_id, key })));
  const claimed = await claimRecordKeys(db, keys);
  return batches.map((p, i) => {
    const taken = new Set<number>();
    const records: DeviceRecord[] = [];
    const times: number[] = [];
    p.records.forEach((record, j) => {
      const key = seqs[i]![j]!;
      if (taken.has(key) || !claimed.has(`${p.device.car_data_id} ${key}`)) return;
      taken.add(key);
      records.push(record);
      times.push(p.times[j]!);
    });
    return records.length === p.records.length ? p : { ...p, records, times };
  });
}

const reply = (
  p: PreparedBatch,
  accepted: number,
  rejected: RejectedRecord[],
  duplicate: boolean,
  commands: DeviceBatchResponse['commands'],
): DeviceBatchResponse => ({
  seq: p.batch.seq,
  accepted,
  rejected,
  duplicate,
  commands,
  server_time: p.now.toISOString(),
});

const newBatch = (p: PreparedBatch): NewBatch => ({
  imei: p.device.car_data_id,
  seq: p.batch.seq,
  accepted: p.valid.length,
  rejected: p.rejected,
  records: p.records,
  patch: foldLatest(p.records, [], p.times),
  settles: p.results.length > 0,
});

const repeated = async (d: Db, p: PreparedBatch, commands: DeviceBatchResponse['commands']): Promise<IngestOutcome> => {
  const first = await findBatch(d, p.device.car_data_id, p.batch.seq);
  return { response: reply(p, first.accepted, first.rejected, true, commands), state: null };
};

/**
 * A stored batch's command results: they settle the commands (an executed one writes its engine row
 * and the engine line), a result the terminal may not give is refused in the batch's answer; then
 * the terminal's commands are read for the answer (a settled one is not handed out again).
 */
async function settleResults(trx: Db, p: PreparedBatch, s: StoredAndRead): Promise<IngestOutcome> {
  const imei = p.device.car_data_id;
  let state = s.state;
  let accepted = p.valid.length;
  let rejected = p.rejected;
  const applied = await applyCommandResults(trx, imei, p.results);
  if (applied.engineRows.length) {
    await insertEngineRows(trx, applied.engineRows);
    state = await mergeLatestState(trx, imei, foldLatest([], applied.lineChanges));
  }
  if (applied.refused.length) {
    accepted -= applied.refused.length;
    rejected = [...p.rejected, ...applied.refused].sort((a, b) => a.index - b.index);
    await setBatchOutcome(trx, imei, p.batch.seq, accepted, rejected);
  }
  return { response: reply(p, accepted, rejected, false, await takePendingCommands(trx, imei)), state };
}

export interface CommitOptions {
  /** What follows a stored position (ingest-follower.ts), in the order given. */
  followers?: readonly IngestFollower[];
  /** PostgreSQL: the log rows go in by COPY (PGlite has no COPY FROM STDIN). */
  copy?: boolean;
  /**
   * Each record is stored once by its content, whatever batch carries it (keepNewRecords): for the
   * binary protocols, whose frames regroup records a terminal sends again. One more statement.
   */
  recordKeys?: boolean;
}

/**
 * The one ingest path: stores batches of different terminals (a single batch
 * is a group of one) in the caller's transaction. One statement stores them
 * all and reads what comes next (commands, what the followers need); command
 * results are settled; then each follower follows the stored batches. A batch
 * seen before stores nothing and gets its first answer again (plus current
 * commands). Answers in the order given.
 */
export async function commitBatches(
  trx: Db,
  batches: readonly PreparedBatch[],
  opts: CommitOptions = {},
): Promise<IngestOutcome[]> {
  const followers = opts.followers ?? [];
  const kept = opts.recordKeys ? await keepNewRecords(trx, batches) : batches;
  const stored = await storeAndRead(trx, kept.map(newBatch), { followers, copy: opts.copy ?? false });
  const out: IngestOutcome[] = [];
  for (const [i, p] of kept.entries()) {
    const s = stored[i]!;
    if (!s.claimed) out.push(await repeated(trx, p, s.commands));
    else if (p.results.length) out.push(await settleResults(trx, p, s));
    else out.push({ response: reply(p, p.valid.length, p.rejected, false, s.commands), state: s.state });
  }
  if (followers.length) {
    const followed: StoredPositions[] = kept.flatMap((p, i) => {
      const state = out[i]!.state;
      if (!stored[i]!.claimed || !state) return [];
      const lastPosition = state.lat !== null && state.lng !== null ? { lat: state.lat, lng: state.lng } : null;
      return [{ carDataId: p.device.car_data_id, records: p.records, times: p.times, now: p.now, lastPosition }];
    });
    for (const [k, f] of followers.entries())
      await f.follow(trx, followed, new Map(kept.map((p, i) => [p.device.car_data_id, stored[i]!.reads[k]])));
  }
  return out;
}

/** One batch through the one path, in a transaction of its own. */
export async function ingestBatch(
  db: Db,
  device: AuthedDevice,
  batch: DeviceBatch,
  now = new Date(),
  opts: CommitOptions = {},
): Promise<IngestOutcome> {
  const prepared = prepareBatch(device, batch, now);
  const [outcome] = await db.transaction().execute((trx) => commitBatches(trx, [prepared], opts));
  return outcome!;
}
