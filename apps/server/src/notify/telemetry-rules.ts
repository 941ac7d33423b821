import {
  errorStatusLabel,
  isInsideForbiddenArea,
  isOutsideAvailableArea,
  notifyItems,
  type Area,
  type DeviceRecord,
  type NotifyItemKey,
  type Position,
} from '@fleet/contract';
import type { Finding } from './deliver.js';

/** The areas of a vehicle: available_data plus its area rows (docs/product.md §3). */
export interface VehicleAreas {
  available: Area[];
  disable: Area[];
}

/** What one batch shows, item by item; vibration depends on each account's threshold. */
export interface BatchFindings {
  fixed: Partial<Record<Exclude<NotifyItemKey, 'vibration'>, Finding>>;
  vibration(threshold: number): Finding | undefined;
}

/** A batch oldest first, with each record's time (epoch ms) at the same index. */
export interface TimeOrder<R> {
  records: readonly R[];
  times: readonly number[];
}

/**
 * The records oldest first, records of the same time in their order (a stable sort), and their times.
 * Each time is read once (or given: `times`, each record's time at its index, as the gateway read them), and a
 * batch already in order (a terminal's usual batch) is not sorted.
 * The judgement works one out per batch for the motion fold and the findings (evaluate-batch.ts).
 */
export function inTimeOrder<R extends { time: string }>(
  records: readonly R[],
  times: readonly number[] = records.map((r) => Date.parse(r.time)),
): TimeOrder<R> {
  if (times.every((t, i) => i === 0 || t >= times[i - 1]!)) return { records, times };
  const index = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
  return { records: index.map((i) => records[i]!), times: index.map((i) => times[i]!) };
}

/** A batch as given, or already in time order. */
export type Batch = readonly DeviceRecord[] | TimeOrder<DeviceRecord>;
export const ordered = (batch: Batch): TimeOrder<DeviceRecord> => ('times' in batch ? batch : inTimeOrder(batch));

const errorItems: Partial<Record<string, 'sensor_error' | 'obd2_error'>> = {
  sensor: 'sensor_error',
  obd2: 'obd2_error',
};

function areaFinding(pos: Position, areas: VehicleAreas): string | undefined {
  const outside = isOutsideAvailableArea(pos, areas.available);
  const forbidden = isInsideForbiddenArea(pos, areas.disable);
  if (outside && forbidden) return '利用可能エリアの外に出て、禁止エリアに入りました';
  if (outside) return '利用可能エリアの外に出ました';
  if (forbidden) return '禁止エリアに入りました';
  return undefined;
}

/**
 * The telemetry items of docs/notifications.md over one batch, oldest record
 * first; the first record that triggers an item is the one reported. A record
 * without a position takes the last one known before it.
 */
export function findBatchEvents(
  batch: Batch,
  ctx: { areas: VehicleAreas | null; lastPosition: Position | null },
): BatchFindings {
  const fixed: BatchFindings['fixed'] = {};
  const vibrations: { value: number; at: Date; position: Position | null }[] = [];
  // The last position known: the batch's last GPS record so far, else the one before the batch.
  let fix: Position | null = null;
  const position = () => (fix ? { lat: fix.lat, lng: fix.lng } : ctx.lastPosition);
  // Times are read once a batch (inTimeOrder) and made Dates only for what is reported.
  let t = 0;
  const add = (item: keyof BatchFindings['fixed'], what: string, detail: Record<string, unknown>) => {
    fixed[item] ??= { item, at: new Date(t), what, position: position(), detail };
  };

  const order = ordered(batch);
  for (let i = 0; i < order.records.length; i++) {
    const r = order.records[i]!;
    t = order.times[i]!;
    switch (r.type) {
      case 'gps': {
        fix = r;
        const what = ctx.areas && areaFinding(r, ctx.areas);
        if (what) add('warn_area', what, { lat: r.lat, lng: r.lng });
        break;
      }
      case 'error': {
        const item = errorItems[r.error_type];
        if (item && r.status_code !== 0) {
          const detail = r.detail ? `、${r.detail}` : '';
          add(
            item,
            `${notifyItems[item].label}を受信しました（状態コード ${r.status_code}: ${errorStatusLabel(r.status_code)}${detail}）`,
            {
              status_code: r.status_code,
              error_detail: r.detail,
            },
          );
        }
        break;
      }
      case 'connection':
        if (r.state === 'disconnected') add('connect_error', '端末の接続が切断されました', { state: r.state });
        break;
      case 'sensor':
        if (typeof r.vibration === 'number')
          vibrations.push({ value: r.vibration, at: new Date(t), position: position() });
        break;
      default:
        break;
    }
  }

  return {
    fixed,
    vibration: (threshold) => {
      const v = vibrations.find((x) => x.value > threshold);
      if (!v) return undefined;
      return {
        item: 'vibration',
        at: v.at,
        position: v.position,
        what: `しきい値（${threshold}G）を超える振動（${v.value}G）を検知しました`,
        detail: { vibration: v.value, threshold },
      };
    },
  };
}
