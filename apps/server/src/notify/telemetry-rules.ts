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

/** The areas of a vehicle: available_data plus its area rows (SPEC.md §3). */
export interface VehicleAreas {
  available: Area[];
  disable: Area[];
}

/** What one batch shows, item by item; vibration depends on each account's threshold. */
export interface BatchFindings {
  fixed: Partial<Record<Exclude<NotifyItemKey, 'vibration'>, Finding>>;
  vibration(threshold: number): Finding | undefined;
}

/**
 * The records oldest first, records of the same time in their order (a stable sort). Each time is read
 * once, and a batch already in order (a terminal's usual batch) is not sorted at all.
 */
export function byTime<R extends { time: string }>(records: readonly R[]): readonly R[] {
  const times = records.map((r) => Date.parse(r.time));
  if (times.every((t, i) => i === 0 || t >= times[i - 1]!)) return records;
  return times
    .map((_, i) => i)
    .sort((a, b) => times[a]! - times[b]!)
    .map((i) => records[i]!);
}

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
  records: readonly DeviceRecord[],
  ctx: { areas: VehicleAreas | null; lastPosition: Position | null },
): BatchFindings {
  const fixed: BatchFindings['fixed'] = {};
  const vibrations: { value: number; at: Date; position: Position | null }[] = [];
  let position = ctx.lastPosition;
  const add = (item: keyof BatchFindings['fixed'], at: Date, what: string, detail: Record<string, unknown>) => {
    fixed[item] ??= { item, at, what, position, detail };
  };

  for (const r of byTime(records)) {
    const at = new Date(r.time);
    switch (r.type) {
      case 'gps': {
        position = { lat: r.lat, lng: r.lng };
        const what = ctx.areas && areaFinding(position, ctx.areas);
        if (what) add('warn_area', at, what, { lat: r.lat, lng: r.lng });
        break;
      }
      case 'error': {
        const item = errorItems[r.error_type];
        if (item && r.status_code !== 0) {
          const detail = r.detail ? `、${r.detail}` : '';
          add(
            item,
            at,
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
        if (r.state === 'disconnected') add('connect_error', at, '端末の接続が切断されました', { state: r.state });
        break;
      case 'sensor':
        if (typeof r.vibration === 'number') vibrations.push({ value: r.vibration, at, position });
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
