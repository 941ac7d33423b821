import { jstDayOf, jstDayRange, shiftJstDay } from '@fleet/contract';

/** 走行ルート's periods: JST days (today up to now) or the hours before the moment 最新に更新 was pressed. */
export type RoutePreset = 'today' | 'yesterday' | '1h' | '6h' | '24h' | '7d' | 'custom';
export const routePresets: readonly RoutePreset[] = ['today', 'yesterday', '1h', '6h', '24h', '7d', 'custom'];

const hours: Partial<Record<RoutePreset, number>> = { '1h': 1, '6h': 6, '24h': 24, '7d': 24 * 7 };

export function presetRange(preset: RoutePreset, asOf: number, custom: { from: string; to: string }) {
  if (preset === 'custom') return custom;
  const today = jstDayOf(new Date(asOf));
  if (preset === 'today') return { from: jstDayRange(today)!.from, to: new Date(asOf).toISOString() };
  if (preset === 'yesterday') return jstDayRange(shiftJstDay(today, -1))!;
  return { from: new Date(asOf - hours[preset]! * 3600_000).toISOString(), to: new Date(asOf).toISOString() };
}
