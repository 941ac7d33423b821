import { z } from 'zod';
import { timestamp } from './wire.js';
import { defineCall } from './call.js';
import { groupFilter } from './groups.js';
import { idField, normalizeDateText } from './fields.js';
import { OkResponse } from './auth.js';
import { validationMessages as m } from './messages.js';
import { parseDateBound } from './telemetry.js';

/**
 * Trips and stops (運行日報) and the fleet summary (docs/trips.md). The server detects trips and stops
 * from the terminals' positions as they arrive and stores them; these calls read what it stored.
 * Times in answers are ISO 8601 in UTC; a day of the reports is a day in Japan time.
 */

/** car_trips reads at most this many days at once (a daily report is one day). */
export const TRIPS_RANGE_MAX_DAYS = 31;
/** fleet_summary covers at most this many days (a quarter: lease mileage by month or by quarter). */
export const SUMMARY_RANGE_MAX_DAYS = 93;

export const tripMessages = {
  rangeRequired: '開始日時と終了日時を入力してください',
  rangeOrder: '開始日時は終了日時より前で指定してください',
  tripsRangeTooLong: `期間は${TRIPS_RANGE_MAX_DAYS}日以内で指定してください`,
  summaryRangeTooLong: `期間は${SUMMARY_RANGE_MAX_DAYS}日以内で指定してください`,
  /** Unknown terminals and another company's terminals answer alike: the answer tells nothing about the latter. */
  unknownTerminal: '指定された端末が見つかりません',
  companyRequired: '会社を指定してください',
  day: '日付の形式が不正です（YYYY-MM-DD）',
  fetchFailed: '運行情報を取得できませんでした。管理者に問い合わせてください。',
  settingsSaved: '運行判定の設定を保存しました',
} as const;

/** Labels of the screens, the exports and the settings form. */
export const tripLabels = {
  dailyReport: '運行日報',
  report: 'レポート',
  fleetSummary: '車両別集計',
  settings: '運行判定の設定',
  trip: '運行',
  stop: '停車',
  trips: '運行一覧',
  stops: '停車一覧',
  previousDay: '前日',
  nextDay: '翌日',
  start_at: '出発日時',
  end_at: '到着日時',
  start_address: '出発地',
  end_address: '到着地',
  start_position: '出発地点（緯度, 経度）',
  end_position: '到着地点（緯度, 経度）',
  distance_m: '走行距離',
  duration_s: '所要時間',
  max_speed_kmh: '最高速度',
  avg_speed_kmh: '平均速度',
  stop_start_at: '停車開始',
  stop_end_at: '停車終了',
  stop_address: '停車地',
  stop_position: '停車地点（緯度, 経度）',
  stop_duration_s: '停車時間',
  stillStopped: '停車中',
  noAddress: '住所未取得',
  car_number: '車両番号',
  car_data_id: 'IMEI',
  driving_s: '運転時間',
  trip_count: '運行回数',
  stop_count: '停車回数',
  total: '合計',
  dayTotals: '1日の合計',
  noTrips: 'この期間の運行はありません',
  company: '会社',
  from: '開始日',
  to: '終了日',
  date: '日付',
  km: 'km',
  kmh: 'km/h',
} as const;

/** The detection rule a company may tune; each bound with its label and unit. */
export const tripSettingFields = {
  stop_min_s: { label: '停車とみなす最短時間', unit: '秒', min: 60, max: 7200, default: 300 },
  stop_radius_m: { label: '停車とみなす範囲（半径）', unit: 'm', min: 20, max: 1000, default: 100 },
  stop_speed_kmh: { label: '停車とみなす速度（未満）', unit: 'km/h', min: 1, max: 30, default: 5 },
  trip_min_m: { label: '運行とみなす最短距離', unit: 'm', min: 0, max: 10_000, default: 500 },
} as const;
export type TripSettingKey = keyof typeof tripSettingFields;

const settingField = (k: TripSettingKey) => {
  const f = tripSettingFields[k];
  const range = `${f.label}は${f.min}〜${f.max}${f.unit}の範囲で入力してください`;
  return z.coerce.number({ error: m.number }).int(m.number).min(f.min, range).max(f.max, range);
};

export const TripSettings = z.object({
  stop_min_s: settingField('stop_min_s'),
  stop_radius_m: settingField('stop_radius_m'),
  stop_speed_kmh: settingField('stop_speed_kmh'),
  trip_min_m: settingField('trip_min_m'),
});
export type TripSettings = z.output<typeof TripSettings>;

/** The rule of a company that never changed it: 5 minutes within 100 m under 5 km/h; a trip covers 500 m. */
export const defaultTripSettings = (): TripSettings => ({
  stop_min_s: tripSettingFields.stop_min_s.default,
  stop_radius_m: tripSettingFields.stop_radius_m.default,
  stop_speed_kmh: tripSettingFields.stop_speed_kmh.default,
  trip_min_m: tripSettingFields.trip_min_m.default,
});

// Ranges ---------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const boundField = z.string({ error: tripMessages.rangeRequired }).trim().max(40, m.tooLong);

/**
 * A required from/to: a JST day ('2026-11-23', the whole day), a JST time without zone, or an instant
 * with its zone, as the log calls read them (parseDateBound). The start before the end, at most maxDays.
 */
const checkedRange = (maxDays: number, tooLong: string) => (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const from = parseDateBound(v.from, 'from');
  const to = parseDateBound(v.to, 'to');
  if (from === null) ctx.addIssue({ code: 'custom', message: tripMessages.rangeRequired, path: ['from'] });
  if (to === null) ctx.addIssue({ code: 'custom', message: tripMessages.rangeRequired, path: ['to'] });
  if (from === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['from'] });
  if (to === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['to'] });
  if (!from || !to) return;
  const span = Date.parse(to) - Date.parse(from);
  if (span <= 0) ctx.addIssue({ code: 'custom', message: tripMessages.rangeOrder, path: ['from'] });
  else if (span > maxDays * DAY_MS) ctx.addIssue({ code: 'custom', message: tooLong, path: ['to'] });
};
/** from/to as ISO instants (to: the last millisecond of a day given alone). */
const resolvedRange = <T extends { from: string; to: string }>(v: T) => ({
  ...v,
  from: parseDateBound(v.from, 'from') as string,
  to: parseDateBound(v.to, 'to') as string,
});

const JST_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A JST day 'YYYY-MM-DD' as the instants it spans: [from, to] with to its last millisecond. */
export function jstDayRange(day: string): { from: string; to: string } | undefined {
  if (!JST_DAY.test(day)) return undefined;
  const from = parseDateBound(day, 'from');
  const to = parseDateBound(day, 'to');
  return from && to ? { from, to } : undefined;
}
/** The JST day ('YYYY-MM-DD') an instant falls on. */
export const jstDayOf = (at: Date | string): string =>
  new Date(new Date(at).getTime() + 9 * 3600_000).toISOString().slice(0, 10);
/** The JST day before or after a JST day (前日 / 翌日). */
export const shiftJstDay = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export const jstDayField = () =>
  z
    .string({ error: tripMessages.day })
    .transform(normalizeDateText)
    .refine((s) => jstDayRange(s) !== undefined, tripMessages.day);

// car_trips ------------------------------------------------------------------------------------

export const CarTripsRequest = z
  .object({ car_data_id: idField(), from: boundField, to: boundField })
  .superRefine(checkedRange(TRIPS_RANGE_MAX_DAYS, tripMessages.tripsRangeTooLong))
  .transform(resolvedRange);
export type CarTripsRequest = z.input<typeof CarTripsRequest>;

const time = timestamp();
const address = z.string().nullable();

export const Trip = z.object({
  start_at: time,
  end_at: time,
  start_lat: z.number(),
  start_lng: z.number(),
  end_lat: z.number(),
  end_lng: z.number(),
  /** Null until addresses are looked up. */
  start_address: address,
  end_address: address,
  /** Along the path driven, metres. */
  distance_m: z.number(),
  duration_s: z.number(),
  max_speed_kmh: z.number(),
  avg_speed_kmh: z.number(),
});
export type Trip = z.infer<typeof Trip>;

export const Stop = z.object({
  start_at: time,
  /** Null while the vehicle is still stopped there. */
  end_at: time.nullable(),
  lat: z.number(),
  lng: z.number(),
  address,
  /** Up to end_at, or up to the newest position while still stopped. */
  duration_s: z.number(),
});
export type Stop = z.infer<typeof Stop>;

/** Trips and stops that overlap the range, oldest first; each cut to the caller's company's time. */
export const CarTripsResponse = z.object({ trips: z.array(Trip), stops: z.array(Stop) });
export type CarTripsResponse = z.infer<typeof CarTripsResponse>;
export const carTrips = defineCall('/api/car_trips', CarTripsRequest, CarTripsResponse);

// fleet_summary --------------------------------------------------------------------------------

export const FleetSummaryRequest = z
  .object({ from: boundField, to: boundField, company_id: idField().optional(), ...groupFilter })
  .superRefine(checkedRange(SUMMARY_RANGE_MAX_DAYS, tripMessages.summaryRangeTooLong))
  .transform(resolvedRange);
export type FleetSummaryRequest = z.input<typeof FleetSummaryRequest>;

export const FleetSummaryRow = z.object({
  car_id: z.string(),
  car_number: z.string(),
  car_data_id: z.string().nullable(),
  distance_m: z.number(),
  driving_s: z.number(),
  trips: z.number().int(),
  stops: z.number().int(),
  /** 0 when the vehicle did not drive in the range. */
  max_speed_kmh: z.number(),
});
export type FleetSummaryRow = z.infer<typeof FleetSummaryRow>;
export const FleetSummaryTotal = z.object({ distance_m: z.number(), driving_s: z.number(), trips: z.number().int() });
/** One row per live vehicle of the company (every company's for the super admin without company_id). */
export const FleetSummaryResponse = z.object({ rows: z.array(FleetSummaryRow), total: FleetSummaryTotal });
export type FleetSummaryResponse = z.infer<typeof FleetSummaryResponse>;
export const fleetSummary = defineCall('/api/fleet_summary', FleetSummaryRequest, FleetSummaryResponse);

// trip_settings --------------------------------------------------------------------------------

/** company_id: the super admin names the company (required); a company admin may omit it (own company). */
export const TripSettingsRequest = z.object({ company_id: idField().optional() });
export const TripSettingsResponse = z.object({ settings: TripSettings });
export const tripSettings = defineCall('/api/trip_settings', TripSettingsRequest, TripSettingsResponse);

export const TripSettingsUpdateRequest = z.object({ company_id: idField().optional(), settings: TripSettings });
export type TripSettingsUpdateRequest = z.input<typeof TripSettingsUpdateRequest>;
export const tripSettingsUpdate = defineCall('/api/trip_settings_update', TripSettingsUpdateRequest, OkResponse);

// report_export (the route and its files: docs/trips.md) -----------------------------------------

export const REPORT_EXPORT_PATH = '/api/report_export';
export const reportKinds = ['daily', 'summary'] as const;
export const reportFormats = ['xlsx', 'pdf', 'csv'] as const;
export type ReportKind = (typeof reportKinds)[number];
export type ReportFormat = (typeof reportFormats)[number];

/**
 * daily: one vehicle's JST day (car_data_id + date), or its days from-to (at most TRIPS_RANGE_MAX_DAYS);
 * summary: the fleet over from-to (company_id for the super admin).
 */
export const ReportExportQuery = z
  .object({
    kind: z.enum(reportKinds, { error: m.invalid }),
    format: z.enum(reportFormats, { error: m.invalid }),
    car_data_id: idField().optional(),
    date: jstDayField().optional(),
    from: boundField.optional(),
    to: boundField.optional(),
    company_id: idField().optional(),
    /** The summary of one vehicle group's vehicles (docs/groups.md). */
    ...groupFilter,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'daily') {
      if (v.car_data_id === undefined) ctx.addIssue({ code: 'custom', message: m.required, path: ['car_data_id'] });
      if (v.date !== undefined) return;
      if (v.from === undefined && v.to === undefined)
        ctx.addIssue({ code: 'custom', message: m.required, path: ['date'] });
      else
        checkedRange(TRIPS_RANGE_MAX_DAYS, tripMessages.tripsRangeTooLong)({ from: v.from ?? '', to: v.to ?? '' }, ctx);
      return;
    }
    checkedRange(SUMMARY_RANGE_MAX_DAYS, tripMessages.summaryRangeTooLong)({ from: v.from ?? '', to: v.to ?? '' }, ctx);
  });
export type ReportExportQuery = z.input<typeof ReportExportQuery>;
