import {
  carStatusLabel,
  reservedCommandTypeLabels,
  roleLabels,
  type ReservedCommandType,
  type Role,
} from '@fleet/contract';
import { formatDateTime } from '../../lib/format';
import { auditTexts } from './texts';

const { keys, values } = auditTexts.detail;
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;
const engineCmd = (v: unknown) => (v === 0 ? values.permit : v === 1 ? values.prohibit : undefined);

/** One value as the screen reads it: times in Japan time, yes/no, the enums' Japanese labels. */
function valueText(key: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? values.yes : values.no;
  if (key === 'role' && typeof v === 'number') return roleLabels[v as Role] ?? String(v);
  if (key === 'car_status' && typeof v === 'number') return carStatusLabel(v);
  if (key === 'cmd') return engineCmd(v) ?? String(v);
  if (key === 'cmd_type' && typeof v === 'string') return reservedCommandTypeLabels[v as ReservedCommandType] ?? v;
  if (typeof v === 'string') return isoTime.test(v) ? formatDateTime(v) : (values[v as keyof typeof values] ?? v);
  if (Array.isArray(v)) return v.map((x) => valueText(key, x)).join('、');
  if (typeof v === 'object') return detailText(v as Record<string, unknown>);
  return String(v);
}

/**
 * An audit row's detail as readable Japanese: 「項目: 値」 joined by 「、」, the known keys with their labels
 * (others as they are), times in Japan time (YYYY/MM/DD HH:mm), never JSON.
 */
export function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([k, v]) => `${keys[k as keyof typeof keys] ?? k}: ${valueText(k, v)}`)
    .join('、');
}
