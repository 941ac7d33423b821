import {
  EARLIEST_RECORD_TIME,
  MAX_CLOCK_SKEW_MS,
  deviceProtocolMessages as msg,
  parseDeviceRecord,
  type DeviceBatch,
  type DeviceBatchResponse,
  type DeviceRecord,
  type RejectedRecord,
  type TelemetryState,
} from '@fleet/contract';
import type { Db } from '../db/database.js';
import { findUnstorableInput } from '../http/input-guard.js';
import { evaluateBatch, type NotifyOptions } from '../notify/evaluate-batch.js';
import { mergeLatestState } from '../telemetry/latest-state.repository.js';
import { applyCommandResults, type IndexedResult } from './command-results.js';
import { takePendingCommands } from './command.repository.js';
import type { AuthedDevice } from './device-auth.js';
import { findBatch, insertEngineRows, setBatchOutcome, storeBatch } from './ingest.repository.js';
import { foldLatest } from './latest-patch.js';

export interface IngestOutcome {
  response: DeviceBatchResponse;
  /** The merged latest state, for the live push; null for a repeated batch. */
  state: TelemetryState | null;
}

/** Checks every record on its own: valid ones go on, invalid ones come back with a reason. */
export function sortRecords(records: readonly unknown[], now: Date) {
  const valid: { index: number; record: DeviceRecord }[] = [];
  const rejected: RejectedRecord[] = [];
  const latestAllowed = now.getTime() + MAX_CLOCK_SKEW_MS;
  records.forEach((input, index) => {
    const unstorable = findUnstorableInput(input);
    if (unstorable !== undefined) return void rejected.push({ index, reason: `${unstorable}: ${msg.unstorable}` });
    const parsed = parseDeviceRecord(input);
    if (!parsed.ok) return void rejected.push({ index, reason: parsed.reason });
    const time = Date.parse(parsed.record.time);
    if (time > latestAllowed) rejected.push({ index, reason: `time: ${msg.futureTime}` });
    else if (!(time >= EARLIEST_RECORD_TIME)) rejected.push({ index, reason: `time: ${msg.pastTime}` });
    // In UTC: PostgreSQL refuses offsets beyond ±15:59 that ISO 8601 allows.
    else valid.push({ index, record: { ...parsed.record, time: new Date(time).toISOString() } });
  });
  return { valid, rejected };
}

/**
 * Stores one batch atomically: its records, its (IMEI, seq) receipt and the
 * latest state, then hands out the terminal's commands. A batch seen before
 * stores nothing and gets its first answer again (plus current commands).
 * Command results need the commands' rows, so such a batch runs in a
 * transaction that also settles them.
 */
export async function ingestBatch(
  db: Db,
  device: AuthedDevice,
  batch: DeviceBatch,
  now = new Date(),
  notify?: Pick<NotifyOptions, 'publicUrl'>,
): Promise<IngestOutcome> {
  const imei = device.car_data_id;
  const { valid, rejected } = sortRecords(batch.records, now);
  const results = valid.filter((v): v is IndexedResult => v.record.type === 'command_result');
  const records = valid.map((v) => v.record).filter((r) => r.type !== 'command_result');
  const reply = (accepted: number, rej: RejectedRecord[], duplicate: boolean, commands: DeviceBatchResponse['commands']) => ({
    seq: batch.seq,
    accepted,
    rejected: rej,
    duplicate,
    commands,
    server_time: now.toISOString(),
  });
  const store = (d: Db) => storeBatch(d, { imei, seq: batch.seq, accepted: valid.length, rejected, records, patch: foldLatest(records) });
  const repeated = async (d: Db): Promise<IngestOutcome> => {
    const first = await findBatch(d, imei, batch.seq);
    return { response: reply(first.accepted, first.rejected, true, await takePendingCommands(d, imei)), state: null };
  };

  const run = async (d: Db): Promise<IngestOutcome> => {
    const stored = await store(d);
    if (!stored.claimed) return repeated(d);
    let state = stored.state;
    let accepted = valid.length;
    let allRejected = rejected;
    if (results.length) {
      const applied = await applyCommandResults(d, imei, results);
      if (applied.engineRows.length) {
        await insertEngineRows(d, applied.engineRows);
        state = await mergeLatestState(d, imei, foldLatest([], applied.lineChanges));
      }
      if (applied.refused.length) {
        accepted -= applied.refused.length;
        allRejected = [...rejected, ...applied.refused].sort((a, b) => a.index - b.index);
        await setBatchOutcome(d, imei, batch.seq, accepted, allRejected);
      }
    }
    // Notifications in the same transaction: a stored batch is judged exactly once (docs/notifications.md).
    if (notify) await evaluateBatch(d, imei, records, { publicUrl: notify.publicUrl, clock: () => now });
    return { response: reply(accepted, allRejected, false, await takePendingCommands(d, imei)), state };
  };
  // A plain batch without notifications is one atomic statement; anything more needs a transaction.
  return results.length === 0 && !notify ? run(db) : db.transaction().execute(run);
}
