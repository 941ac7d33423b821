import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { OkResponse } from './auth.js';
import { validationMessages as m } from './messages.js';
import { jstDayOf, shiftJstDay, tripLabels, type ReportFormat, type Trip } from './trips.js';

/**
 * The trip reports' files (POST /api/report_export, its query is `ReportExportQuery` in trips.ts) and
 * the scheduled fleet summary by mail (docs/trips.md "Exports" and "Scheduled reports"). What the
 * files and the mail say lives here; the numbers come from the trip calls' repository.
 */

/** The scheduled reports are queued at this hour, Japan time (the day's and the month's data are complete). */
export const REPORT_MAIL_HOUR_JST = 7;

export const reportMessages = {
  exportFailed: 'レポートの出力に失敗しました。管理者に問い合わせてください。',
  exportBusy: '別のレポート出力を実行中です。完了してから再度お試しください。',
  subscriptionSaved: '定期レポートの設定を保存しました',
  subscriptionFailed: '定期レポートの設定を保存できませんでした。管理者に問い合わせてください。',
  otherCompany: '他の会社のレポートは指定できません',
  companyMissing: '指定された会社が見つかりません',
} as const;

export const reportLabels = {
  download: 'ダウンロード',
  formats: { xlsx: 'Excel', pdf: 'PDF', csv: 'CSV' } satisfies Record<ReportFormat, string>,
  presets: { yesterday: '昨日', thisWeek: '今週', thisMonth: '今月', lastMonth: '先月' },
  subscription: '定期レポート（メール）',
  subscriptionHelp: `車両別集計をExcelファイルでメールに添付して、毎日${REPORT_MAIL_HOUR_JST}時（日本時間）に送信します。`,
  daily: '毎日（前日の車両別集計）',
  monthly: '毎月1日（前月の車両別集計）',
  mailTo: '送信先',
  allCompanies: 'すべての会社',
  save: '保存',
  /** Sheet names and headings of the files. */
  tripsSheet: tripLabels.trips,
  stopsSheet: tripLabels.stops,
  summarySheet: tripLabels.fleetSummary,
  infoSheet: '概要',
  period: '期間',
  createdAt: '作成日時',
  vehicle: '車両',
  km: (metres: number) => `${(metres / 1000).toFixed(1)} km`,
  duration: (s: number) => `${Math.floor(s / 3600)}時間${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}分`,
} as const;

/** One column of an export: its Japanese header and, for numbers, the Excel number format. */
export interface ReportColumn<K extends string = string> {
  key: K;
  header: string;
  numFmt?: string;
  width?: number;
}

const L = tripLabels;
/** The daily report's trips: times in JST, distance in km, durations in minutes (numbers stay numbers). */
export const dailyTripColumns = [
  { key: 'start_at', header: L.start_at, width: 20 },
  { key: 'end_at', header: L.end_at, width: 20 },
  { key: 'start_address', header: L.start_address, width: 28 },
  { key: 'end_address', header: L.end_address, width: 28 },
  { key: 'distance_km', header: `${L.distance_m} (km)`, numFmt: '0.0', width: 12 },
  { key: 'duration_min', header: `${L.duration_s} (分)`, numFmt: '0', width: 12 },
  { key: 'max_speed_kmh', header: `${L.max_speed_kmh} (km/h)`, numFmt: '0', width: 14 },
  { key: 'avg_speed_kmh', header: `${L.avg_speed_kmh} (km/h)`, numFmt: '0', width: 14 },
] as const satisfies readonly ReportColumn[];

export const dailyStopColumns = [
  { key: 'start_at', header: L.stop_start_at, width: 20 },
  { key: 'end_at', header: L.stop_end_at, width: 20 },
  { key: 'address', header: L.stop_address, width: 36 },
  { key: 'duration_min', header: `${L.stop_duration_s} (分)`, numFmt: '0', width: 12 },
] as const satisfies readonly ReportColumn[];

/** The CSV and the PDF of a daily report: trips and stops in one timeline, oldest first. */
export const dailyTimelineColumns = [
  { key: 'kind', header: '種別', width: 8 },
  { key: 'start_at', header: '開始日時', width: 20 },
  { key: 'end_at', header: '終了日時', width: 20 },
  { key: 'place', header: '場所（出発地・停車地）', width: 30 },
  { key: 'end_place', header: L.end_address, width: 30 },
  { key: 'distance_km', header: `${L.distance_m} (km)`, numFmt: '0.0', width: 12 },
  { key: 'duration_min', header: '時間 (分)', numFmt: '0', width: 10 },
  { key: 'max_speed_kmh', header: `${L.max_speed_kmh} (km/h)`, numFmt: '0', width: 14 },
] as const satisfies readonly ReportColumn[];

export const summaryColumns = [
  { key: 'car_number', header: L.car_number, width: 18 },
  { key: 'car_data_id', header: L.car_data_id, width: 18 },
  { key: 'distance_km', header: `${L.distance_m} (km)`, numFmt: '0.0', width: 12 },
  { key: 'driving_h', header: `${L.driving_s} (時間)`, numFmt: '0.00', width: 12 },
  { key: 'trips', header: L.trip_count, numFmt: '0', width: 10 },
  { key: 'stops', header: L.stop_count, numFmt: '0', width: 10 },
  { key: 'max_speed_kmh', header: `${L.max_speed_kmh} (km/h)`, numFmt: '0', width: 14 },
] as const satisfies readonly ReportColumn[];

/** Where a position has no address yet: its coordinates, so the row still says where. */
export const placeOf = (address: string | null, lat: number, lng: number) =>
  address ?? `${lat.toFixed(5)}, ${lng.toFixed(5)}`;

/** A daily report's totals (the 運行日報 tab and its files): distance, driving time, stops, top speed. */
export function dailyTotals(
  trips: readonly Pick<Trip, 'distance_m' | 'duration_s' | 'max_speed_kmh'>[],
  stops: readonly unknown[],
) {
  return {
    distance_m: trips.reduce((n, t) => n + t.distance_m, 0),
    driving_s: trips.reduce((n, t) => n + t.duration_s, 0),
    trips: trips.length,
    stops: stops.length,
    max_speed_kmh: trips.reduce((n, t) => Math.max(n, t.max_speed_kmh), 0),
  };
}
export type DailyTotals = ReturnType<typeof dailyTotals>;

// Periods ------------------------------------------------------------------------------------------

export type SummaryPreset = keyof typeof reportLabels.presets;
export const summaryPresets = Object.keys(reportLabels.presets) as SummaryPreset[];

/** The first day of the JST month of a JST day, and the month's last day. */
const monthOf = (day: string) => {
  const first = `${day.slice(0, 7)}-01`;
  const [y, mo] = first.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
  return { first, last };
};

/**
 * A preset of the レポート screen as JST days (both included): 昨日, 今週 (Monday to today), 今月 (the
 * 1st to today), 先月 (the whole previous month).
 */
export function presetRange(preset: SummaryPreset, now: Date): { from: string; to: string } {
  const today = jstDayOf(now);
  switch (preset) {
    case 'yesterday': {
      const d = shiftJstDay(today, -1);
      return { from: d, to: d };
    }
    case 'thisWeek': {
      const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
      return { from: shiftJstDay(today, -weekday), to: today };
    }
    case 'thisMonth':
      return { from: monthOf(today).first, to: today };
    case 'lastMonth': {
      const { first, last } = monthOf(shiftJstDay(monthOf(today).first, -1));
      return { from: first, to: last };
    }
  }
}

/** The period a scheduled report covers when it is due at `now`: the previous JST day, or the previous JST month. */
export function scheduledPeriod(frequency: 'daily' | 'monthly', now: Date) {
  const today = jstDayOf(now);
  if (frequency === 'daily') {
    const d = shiftJstDay(today, -1);
    return { key: d, from: d, to: d };
  }
  const { first, last } = monthOf(shiftJstDay(monthOf(today).first, -1));
  return { key: first.slice(0, 7), from: first, to: last };
}

/** Whether `now` is at or past the day's report hour in Japan time. */
export const reportHourReached = (now: Date) =>
  new Date(now.getTime() + 9 * 3600_000).getUTCHours() >= REPORT_MAIL_HOUR_JST;

export const reportMail = {
  subject: (frequency: 'daily' | 'monthly', key: string) =>
    frequency === 'daily' ? `【車両別集計】${key.replaceAll('-', '/')}` : `【車両別集計】${key.replace('-', '年')}月`,
  body: (frequency: 'daily' | 'monthly', from: string, to: string, vehicles: number, totalM: number) =>
    [
      `${frequency === 'daily' ? '前日' : '前月'}の車両別集計をお送りします。`,
      '',
      `期間: ${from.replaceAll('-', '/')}〜${to.replaceAll('-', '/')}（日本時間）`,
      `車両数: ${vehicles}台`,
      `走行距離の合計: ${reportLabels.km(totalM)}`,
      '',
      '詳しくは添付のExcelファイルをご覧ください。',
      'このメールの配信はレポート画面の「定期レポート（メール）」で停止できます。',
    ].join('\n'),
  fileName: (key: string) => `fleet_summary_${key}.xlsx`,
} as const;

// Subscription calls -----------------------------------------------------------------------------

export const ReportSubscription = z.object({
  daily: z.boolean(),
  monthly: z.boolean(),
  /** The super admin's company (null: every company); other accounts always get their own company's. */
  company_id: z.string().nullable(),
  /** Where the mail goes: the account's address. */
  email: z.string(),
});
export type ReportSubscription = z.infer<typeof ReportSubscription>;

export const reportSubscription = defineCall('/api/report_subscription', z.object({}), ReportSubscription);

export const ReportSubscriptionUpdateRequest = z.object({
  daily: z.boolean({ error: m.invalid }),
  monthly: z.boolean({ error: m.invalid }),
  company_id: idField().nullish(),
});
export type ReportSubscriptionUpdateRequest = z.input<typeof ReportSubscriptionUpdateRequest>;
export const reportSubscriptionUpdate = defineCall(
  '/api/report_subscription_update',
  ReportSubscriptionUpdateRequest,
  OkResponse,
);
