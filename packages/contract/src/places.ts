import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { validationMessages as m } from './messages.js';
import { parseDateBound } from './telemetry.js';

/**
 * Addresses, place search and the places a vehicle frequents (docs/geocoding.md). Addresses come from the
 * server's reverse geocoder through its cache: null until looked up, and while the provider fails.
 */

/** car_places reads at most this many days of stops at once. */
export const PLACES_RANGE_MAX_DAYS = 93;
/** Stops within this distance of a place's first stop count as visits of the same place. */
export const PLACE_RADIUS_M = 100;
/** The night of 「夜間」: 0:00 to 5:00 in Japan. */
export const NIGHT_HOURS_JST = { from: 0, to: 5 } as const;

export const placeMessages = {
  queryRequired: '検索する地名・住所を入力してください',
  searchFailed: '地名検索に失敗しました。しばらくしてから再度お試しください。',
  noResults: '該当する場所が見つかりません',
  rangeRequired: '開始日時と終了日時を入力してください',
  rangeOrder: '開始日時は終了日時より前で指定してください',
  rangeTooLong: `期間は${PLACES_RANGE_MAX_DAYS}日以内で指定してください`,
  unknownTerminal: '指定された端末が見つかりません',
  tilesFailed: '地図の画像を読み込めません（ネットワークまたはプロキシの設定を確認してください）',
} as const;

export const placeLabels = {
  search: '地名・住所で検索',
  searchButton: '検索',
  frequentPlaces: 'よく停まる場所',
  nightPlace: '夜間によく停まる場所',
  visits: '回数',
  total_s: '滞在時間',
  night_s: '夜間（0〜5時）',
  address: '住所',
  position: '緯度, 経度',
  noPlaces: 'この期間に停車した場所はありません',
  noAddress: '住所未取得',
  addressHeader: '住所',
  lastDays: (n: number) => `過去${n}日間`,
} as const;

// place_search ----------------------------------------------------------------------------------

export const PlaceSearchRequest = z.object({
  q: z.string({ error: placeMessages.queryRequired }).trim().min(1, placeMessages.queryRequired).max(100, m.tooLong),
});
export const Place = z.object({ name: z.string(), lat: z.number(), lng: z.number() });
export type Place = z.infer<typeof Place>;
/** At most PLACE_SEARCH_MAX places, in the provider's order (best first). */
export const PLACE_SEARCH_MAX = 20;
export const placeSearch = defineCall('/api/place_search', PlaceSearchRequest, z.object({ places: z.array(Place) }));

// car_places ------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const boundField = z.string({ error: placeMessages.rangeRequired }).trim().max(40, m.tooLong);

export const CarPlacesRequest = z
  .object({ car_data_id: idField(), from: boundField, to: boundField })
  .superRefine((v, ctx) => {
    const from = parseDateBound(v.from, 'from');
    const to = parseDateBound(v.to, 'to');
    if (from === null) ctx.addIssue({ code: 'custom', message: placeMessages.rangeRequired, path: ['from'] });
    if (to === null) ctx.addIssue({ code: 'custom', message: placeMessages.rangeRequired, path: ['to'] });
    if (from === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['from'] });
    if (to === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['to'] });
    if (!from || !to) return;
    const span = Date.parse(to) - Date.parse(from);
    if (span <= 0) ctx.addIssue({ code: 'custom', message: placeMessages.rangeOrder, path: ['from'] });
    else if (span > PLACES_RANGE_MAX_DAYS * DAY_MS)
      ctx.addIssue({ code: 'custom', message: placeMessages.rangeTooLong, path: ['to'] });
  })
  .transform((v) => ({
    ...v,
    from: parseDateBound(v.from, 'from') as string,
    to: parseDateBound(v.to, 'to') as string,
  }));
export type CarPlacesRequest = z.input<typeof CarPlacesRequest>;

export const FrequentPlace = z.object({
  lat: z.number(),
  lng: z.number(),
  address: z.string().nullable(),
  visits: z.number().int(),
  /** Seconds stopped there within the range. */
  total_s: z.number().int(),
  /** Of total_s, the seconds between 0:00 and 5:00 in Japan. */
  night_s: z.number().int(),
});
export type FrequentPlace = z.infer<typeof FrequentPlace>;
/** Most-dwelt first; the caller's company's time only (as the logs). */
export const carPlaces = defineCall('/api/car_places', CarPlacesRequest, z.object({ places: z.array(FrequentPlace) }));

/** The place a vehicle spends most of its nights at: the most night seconds, if any. */
export function nightPlaceOf<P extends { night_s: number }>(places: readonly P[]): P | undefined {
  let best: P | undefined;
  for (const p of places) if (p.night_s > 0 && (!best || p.night_s > best.night_s)) best = p;
  return best;
}
