import {
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
import { evaluateBatch, type NotifyOptions } from '../notify/evaluate-batch.js';
import { mergeLatestState } from '../telemetry/latest-state.repository.js';
import { applyCommandResults, type IndexedResult } from './command-results.js';
import { takePendingCommands } from './command.repository.js';
import type { AuthedDevice } from './device-auth.js';
import { claimBatch, findBatch, insertLogs, setBatchOutcome } from './ingest.repository.js';
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
    const parsed = parseDeviceRecord(input);
    if (!parsed.ok) rejected.push({ index, reason: parsed.reason });
    else if (Date.parse(parsed.record.time) > latestAllowed) rejected.push({ index, reason: `time: ${msg.futureTime}` });
    else valid.push({ index, record: parsed.record });
  });
  return { valid, rejected };
}

/**
 * One batch, one transaction: the (IMEI, seq) claim, every valid record, the
 * command results, the latest state and the commands to hand out. A batch seen
 * before stores nothing and gets its first answer again (plus current commands).
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
  const reply = (accepted: number, rej: RejectedRecord[], duplicate: boolean, commands: DeviceBatchResponse['commands']) => ({
    seq: batch.seq,
    accepted,
    rejected: rej,
    duplicate,
    commands,
    server_time: now.toISOString(),
  });

  return db.transaction().execute(async (trx) => {
    if (!(await claimBatch(trx, imei, batch.seq, valid.length, rejected))) {
      const first = await findBatch(trx, imei, batch.seq);
      return { response: reply(first.accepted, first.rejected, true, await takePendingCommands(trx, imei)), state: null };
    }
    const results = valid.filter((v): v is IndexedResult => v.record.type === 'command_result');
    const applied = await applyCommandResults(trx, imei, results);
    const refusedAt = new Set(applied.refused.map((r) => r.index));
    const records = valid.filter((v) => !refusedAt.has(v.index)).map((v) => v.record);

    await insertLogs(trx, imei, records, applied.engineRows);
    const state = await mergeLatestState(trx, imei, foldLatest(records, applied.lineChanges));
    // Notifications in the same transaction: a stored batch is judged exactly once (docs/notifications.md).
    if (notify) await evaluateBatch(trx, imei, records, { publicUrl: notify.publicUrl, clock: () => now });
    const allRejected = [...rejected, ...applied.refused].sort((a, b) => a.index - b.index);
    const accepted = valid.length - applied.refused.length;
    if (applied.refused.length) await setBatchOutcome(trx, imei, batch.seq, accepted, allRejected);
    return { response: reply(accepted, allRejected, false, await takePendingCommands(trx, imei)), state };
  });
}
