import { z } from 'zod';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { idField, requiredText } from './fields.js';
import { BULK_CARS_MAX, groupMessages } from './groups.js';
import { validationMessages as m } from './messages.js';
import { timestamp } from './wire.js';

/**
 * Zones (docs/zones.md): a company's circles (centre + radius in metres) and polygons, shared by its
 * vehicles, judged at ingest with enter and exit events. They sit beside the spec's areas (rectangles in
 * degrees, docs/product.md §4), which stay as they are.
 */
export const ZONE_NAME_MAX = 64;
export const ZONE_RADIUS_MAX_M = 100_000;
export const ZONE_POINTS_MIN = 3;
export const ZONE_POINTS_MAX = 200;
export const ZONE_COLOR_DEFAULT = '#e8590c';
export const zoneShapes = ['circle', 'polygon'] as const;
export type ZoneShape = (typeof zoneShapes)[number];
export const zoneShapeLabels: Record<ZoneShape, string> = { circle: '円', polygon: '多角形' };

export const zoneLabels = {
  name: 'ゾーン名',
  shape: '形',
  color: '色',
  lat: '中心の緯度',
  lng: '中心の経度',
  radius_m: '半径（m）',
  points: '頂点',
  company_id: '会社',
} as const;

export const zoneMessages = {
  latitude: '緯度は-90〜90の範囲で入力してください',
  longitude: '経度は-180〜180の範囲で入力してください',
  radius: `半径は1m以上${ZONE_RADIUS_MAX_M / 1000}km以下で入力してください`,
  tooFewPoints: `頂点は${ZONE_POINTS_MIN}点以上必要です`,
  tooManyPoints: `頂点は${ZONE_POINTS_MAX}点までです`,
  selfIntersecting: '多角形の辺が交差しています。辺が交わらないように頂点を置いてください',
  color: '色は #RRGGBB の形式で入力してください',
  notFound: 'ゾーンが見つかりません。',
  carDeleted: '削除された車両のゾーンは変更できません。',
  otherCompany: '他の会社の車両にはこのゾーンを割り当てられません',
  otherCompanyField: '他の会社を指定することはできません',
  companyMissing: '会社が見つかりません',
  companyRequired: '会社を選択してください',
  fetchFailed: 'ゾーンを取得できませんでした。管理者に問い合わせてください。',
  saveFailed: 'ゾーンの保存に失敗しました。管理者に問い合わせてください。',
  noZones: 'ゾーンを選択してください',
  mixedCompanies: '同じ会社のゾーンを選択してください',
  otherCompanyGroup: '他の会社の拠点・部署にはこのゾーンを割り当てられません',
} as const;

const num = (message: string) => z.number({ error: message }).refine(Number.isFinite, message);
const latitude = () => num(zoneMessages.latitude).min(-90, zoneMessages.latitude).max(90, zoneMessages.latitude);
const longitude = () => num(zoneMessages.longitude).min(-180, zoneMessages.longitude).max(180, zoneMessages.longitude);

export const ZonePoint = z.object({ lat: latitude(), lng: longitude() });
export type ZonePoint = z.infer<typeof ZonePoint>;

type Pt = { lat: number; lng: number };
const cross = (o: Pt, a: Pt, b: Pt) => (a.lng - o.lng) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lng - o.lng);
const onSegment = (p: Pt, a: Pt, b: Pt) =>
  Math.min(a.lng, b.lng) <= p.lng &&
  p.lng <= Math.max(a.lng, b.lng) &&
  Math.min(a.lat, b.lat) <= p.lat &&
  p.lat <= Math.max(a.lat, b.lat);

/** Whether two segments share a point (touching counts). */
export function segmentsMeet(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && onSegment(a, c, d)) ||
    (d2 === 0 && onSegment(b, c, d)) ||
    (d3 === 0 && onSegment(c, a, b)) ||
    (d4 === 0 && onSegment(d, a, b))
  );
}

/**
 * A ring crosses or touches itself: two edges that are not neighbours meet, neighbours overlap, or a
 * vertex repeats. Judged in degrees: a crossing does not depend on the projection at zone sizes.
 */
export function isSelfIntersecting(ring: readonly Pt[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (ring[i]!.lat === ring[j]!.lat && ring[i]!.lng === ring[j]!.lng) return true;
    }
  }
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      const c = ring[j]!;
      const d = ring[(j + 1) % n]!;
      const neighbours = j === i + 1 || (i === 0 && j === n - 1);
      if (neighbours) {
        // Neighbours share one vertex; they may not fold back over each other.
        const shared = j === i + 1 ? b : a;
        const far1 = j === i + 1 ? a : b;
        const far2 = j === i + 1 ? d : c;
        if (cross(shared, far1, far2) === 0 && onSegment(far2, shared, far1)) return true;
        if (cross(shared, far1, far2) === 0 && onSegment(far1, shared, far2)) return true;
        continue;
      }
      if (segmentsMeet(a, b, c, d)) return true;
    }
  }
  return false;
}

/** A ring given closed (last point = first, as GeoJSON writes it) is taken open. */
const openRing = (points: Pt[]) => {
  const first = points[0];
  const last = points.at(-1);
  return points.length > 3 && first && last && first.lat === last.lat && first.lng === last.lng
    ? points.slice(0, -1)
    : points;
};

const Points = z
  .array(ZonePoint, { error: zoneMessages.tooFewPoints })
  .transform(openRing)
  .superRefine((p, ctx) => {
    const message =
      p.length < ZONE_POINTS_MIN
        ? zoneMessages.tooFewPoints
        : p.length > ZONE_POINTS_MAX
          ? zoneMessages.tooManyPoints
          : isSelfIntersecting(p)
            ? zoneMessages.selfIntersecting
            : undefined;
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The shape and its name and colour; each shape its own fields, the others ignored and stored as null. */
export const ZoneInfo = z
  .object({
    name: requiredText(ZONE_NAME_MAX),
    shape: z.enum(zoneShapes, { error: m.required }),
    color: z
      .string({ error: zoneMessages.color })
      .regex(/^#[0-9a-fA-F]{6}$/, zoneMessages.color)
      .optional()
      .default(ZONE_COLOR_DEFAULT),
    lat: latitude().optional(),
    lng: longitude().optional(),
    radius_m: num(zoneMessages.radius)
      .min(1, zoneMessages.radius)
      .max(ZONE_RADIUS_MAX_M, zoneMessages.radius)
      .optional(),
    points: z.unknown().optional(),
    company_id: idField().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.shape === 'circle') {
      for (const key of ['lat', 'lng', 'radius_m'] as const)
        if (v[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: m.required });
    } else if (v.shape === 'polygon') {
      const parsed = Points.safeParse(v.points ?? []);
      if (!parsed.success)
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: ['points', ...issue.path] as PropertyKey[], message: issue.message });
    }
  })
  .transform((v) => {
    const base = { name: v.name, shape: v.shape, color: v.color.toLowerCase(), company_id: v.company_id };
    if (v.shape === 'circle') return { ...base, lat: v.lat!, lng: v.lng!, radius_m: v.radius_m!, points: null };
    return { ...base, lat: null, lng: null, radius_m: null, points: openRing(v.points as Pt[]) };
  });
export type ZoneInfo = z.input<typeof ZoneInfo>;
export type ZoneShapeValue = z.output<typeof ZoneInfo>;

export const Zone = z.object({
  zone_id: z.string(),
  company_id: z.string(),
  name: z.string(),
  shape: z.enum(zoneShapes),
  color: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  radius_m: z.number().nullable(),
  points: z.array(z.object({ lat: z.number(), lng: z.number() })).nullable(),
  /** How many vehicles it is assigned to directly. */
  car_count: z.number().int(),
  updated_at: timestamp(),
});
export type Zone = z.infer<typeof Zone>;

const ZoneIdRequest = z.object({ zone_id: idField() });

export const zoneAdd = defineCall('/api/zone_add', z.object({ info: ZoneInfo }), z.object({ zone_id: z.string() }));
export const zoneList = defineCall(
  '/api/zone_list',
  z.object({ company_id: idField().optional() }),
  z.object({ list: z.array(Zone) }),
);
export const zoneUpdate = defineCall('/api/zone_update', z.object({ zone_id: idField(), info: ZoneInfo }), OkResponse);
export const zoneDelete = defineCall('/api/zone_delete', ZoneIdRequest, OkResponse);
export const carZonesUpdate = defineCall(
  '/api/car_zones_update',
  z.object({ car_id: idField(), zone_ids: z.array(idField(), { error: m.invalid }).max(10_000, m.invalid) }),
  OkResponse.extend({ count: z.number().int() }),
);
/** A zone a vehicle has through one of its groups (docs/zones.md "Assignment"). */
export const GroupZone = z.object({
  zone_id: z.string(),
  name: z.string(),
  group_id: z.string(),
  group_name: z.string(),
});
export type GroupZone = z.infer<typeof GroupZone>;
/** A vehicle's own zones (`zones`) and those it has through its groups (`group_zones`, read-only here). */
export const carZones = defineCall(
  '/api/car_zones',
  z.object({ car_id: idField() }),
  z.object({ car_id: z.string(), zones: z.array(Zone), group_zones: z.array(GroupZone) }),
);

const zoneIds = () => z.array(idField(), { error: m.invalid }).max(10_000, m.invalid);

/** The zones a group's vehicles are judged against (besides each vehicle's own), replaced as a whole. */
export const groupZones = defineCall(
  '/api/group_zones',
  z.object({ group_id: idField() }),
  z.object({ group_id: z.string(), zones: z.array(Zone) }),
);
export const groupZonesUpdate = defineCall(
  '/api/group_zones_update',
  z.object({ group_id: idField(), zone_ids: zoneIds() }),
  OkResponse.extend({ count: z.number().int() }),
);

/**
 * Bulk action of the vehicle list: the zones are added to each selected vehicle's own zones (those it
 * already has stay). All or nothing: one vehicle not visible (or deleted) refuses the call (404).
 */
export const zoneCarsAdd = defineCall(
  '/api/zone_cars_add',
  z.object({
    zone_ids: zoneIds().min(1, zoneMessages.noZones),
    car_ids: z
      .array(idField(), { error: m.invalid })
      .min(1, groupMessages.noCars)
      .max(BULK_CARS_MAX, groupMessages.tooManyCars),
  }),
  OkResponse.extend({ count: z.number().int() }),
);
