import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { AvailableData, AvailableDataOut } from './car.js';
import { idField, optionalText, requiredText } from './fields.js';
import { BULK_CARS_MAX, groupMessages } from './groups.js';
import { coordinate, fieldMessages } from './master-fields.js';
import { validationMessages as m } from './messages.js';

/**
 * A vehicle's areas (docs/product.md §3 available_data, available_areas,
 * disable_areas; §7 car_*_areas*, *area_template*) and the judgement of
 * docs/product.md §4 on its current position. docs/engine-control.md tells the rules.
 */
export const AREA_LIST_MAX = 50;
export const AREA_NAME_MAX = 64;
export const areaKinds = ['available', 'disable'] as const;
export type AreaKind = (typeof areaKinds)[number];
export const areaKindLabels: Record<AreaKind, string> = { available: '利用可能エリア', disable: '禁止エリア' };

export const areaLabels = {
  name: 'エリア名',
  lat_min: '緯度（最小）',
  lat_max: '緯度（最大）',
  lng_min: '経度（最小）',
  lng_max: '経度（最大）',
  template_name: 'テンプレート名',
} as const;

export const areaMessages = {
  fetchFailed: 'エリア情報を取得できませんでした。管理者に問い合わせてください。',
  updateFailed: 'エリア設定の更新に失敗しました。管理者に問い合わせてください。',
  templateFetchFailed: 'エリアテンプレートを取得できませんでした。管理者に問い合わせてください。',
  templateSaveFailed: 'エリアテンプレートの保存に失敗しました。管理者に問い合わせてください。',
  templateDeleteFailed: 'エリアテンプレートの削除に失敗しました。管理者に問い合わせてください。',
  templateApplyFailed: 'エリアテンプレートの適用に失敗しました。管理者に問い合わせてください。',
  tooManyAreas: `エリアは${AREA_LIST_MAX}件まで登録できます`,
  areasRequired: 'エリアを1件以上登録してください',
  templateNotFound: 'エリアテンプレートが見つかりません。',
  templateReadOnly: 'このテンプレートは本部の共有テンプレートのため、変更・削除できません。',
  templateTypeMismatch: 'テンプレートの種類（利用可能エリア・禁止エリア）が一致しません。',
  carDeleted: '削除された車両のエリアは変更できません。',
} as const;

const bound = (limit: number, message: string) =>
  coordinate(limit, message)
    .refine((v): v is number => v !== null, m.required)
    .transform((v) => v!);

/** One rectangle of an area list: all four bounds, min < max. */
export const AreaInput = z
  .object({
    name: optionalText(AREA_NAME_MAX),
    lat_min: bound(90, fieldMessages.latitude),
    lat_max: bound(90, fieldMessages.latitude),
    lng_min: bound(180, fieldMessages.longitude),
    lng_max: bound(180, fieldMessages.longitude),
  })
  .superRefine((v, ctx) => {
    // Zod runs this even after a bound failed; compare only bounds that passed.
    const ok = (x: unknown, limit: number) => typeof x === 'number' && Math.abs(x) <= limit;
    if (ok(v.lat_min, 90) && ok(v.lat_max, 90) && v.lat_min >= v.lat_max)
      ctx.addIssue({ code: 'custom', path: ['lat_max'], message: fieldMessages.minBelowMax });
    if (ok(v.lng_min, 180) && ok(v.lng_max, 180) && v.lng_min >= v.lng_max)
      ctx.addIssue({ code: 'custom', path: ['lng_max'], message: fieldMessages.minBelowMax });
  });
export type AreaInput = z.input<typeof AreaInput>;
export const AreaList = z.array(AreaInput, { error: m.invalid }).max(AREA_LIST_MAX, areaMessages.tooManyAreas);

export const AreaRow = z.object({
  area_id: z.number().int(),
  name: z.string(),
  lat_min: z.number(),
  lat_max: z.number(),
  lng_min: z.number(),
  lng_max: z.number(),
});
export type AreaRow = z.infer<typeof AreaRow>;

const CarIdRequest = z.object({ car_id: idField() });

// available_data (the vehicle's own rectangle, cars.lat_min..lng_max) ---------

export const carGetAvailableData = defineCall(
  '/api/car_get_available_data',
  CarIdRequest,
  z.object({ car_id: z.string(), available_data: AvailableDataOut.nullable() }),
);
/** available_data: all four bounds, or all empty / null to clear it. */
export const carAvailableUpdate = defineCall(
  '/api/car_available_update',
  z.object({ car_id: idField(), available_data: AvailableData }),
  OkResponse,
);

// Area lists: each update replaces the vehicle's whole list --------------------

export const carGetAvailableAreas = defineCall(
  '/api/car_get_available_areas',
  CarIdRequest,
  z.object({ car_id: z.string(), available_areas: z.array(AreaRow) }),
);
export const carAvailableAreasUpdate = defineCall(
  '/api/car_available_areas_update',
  z.object({ car_id: idField(), available_areas: AreaList }),
  OkResponse.extend({ count: z.number().int() }),
);
export const carGetDisableAreas = defineCall(
  '/api/car_get_disable_areas',
  CarIdRequest,
  z.object({ car_id: z.string(), disable_areas: z.array(AreaRow) }),
);
export const carDisableAreasUpdate = defineCall(
  '/api/car_disable_areas_update',
  z.object({ car_id: idField(), disable_areas: AreaList }),
  OkResponse.extend({ count: z.number().int() }),
);

// Judgement -------------------------------------------------------------------

/**
 * The vehicle's last known position judged by docs/product.md §4: the available region
 * is available_data plus the available areas (outside means outside all of
 * them); inside any forbidden area counts. No position or no areas: false.
 */
export const carGetAreaStatus = defineCall(
  '/api/car_get_area_status',
  CarIdRequest,
  z.object({
    car_id: z.string(),
    position: z.object({ lat: z.number(), lng: z.number(), recorded_at: timestamp().nullable() }).nullable(),
    outsideAvailable: z.boolean(),
    insideForbidden: z.boolean(),
    /** How many rectangles each judgement used (available_data counts as one). */
    availableCount: z.number().int(),
    disableCount: z.number().int(),
  }),
);

// Templates -------------------------------------------------------------------

export const AreaTemplate = z.object({
  template_id: z.string(),
  type: z.enum(areaKinds),
  name: z.string(),
  /** null: a shared template of the head office (super admin), visible to every company. */
  company_id: z.string().nullable(),
  areas: z.array(AreaRow.omit({ area_id: true })),
  /** Whether the caller may change or delete it. */
  editable: z.boolean(),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type AreaTemplate = z.infer<typeof AreaTemplate>;

export const getAreaTemplates = defineCall(
  '/api/get_area_templates',
  z.object({ type: z.enum(areaKinds, { error: m.invalid }) }),
  z.object({ list: z.array(AreaTemplate) }),
);

/** Creates when template_id is absent (the server makes the id), else replaces that template. */
export const AreaTemplateForm = z.object({
  template_id: idField().optional(),
  type: z.enum(areaKinds, { error: m.invalid }),
  name: requiredText(AREA_NAME_MAX),
  areas: AreaList.min(1, areaMessages.areasRequired),
});
export type AreaTemplateInput = z.input<typeof AreaTemplateForm>;
export const areaTemplateUpdate = defineCall(
  '/api/area_template_update',
  z.object({ template: AreaTemplateForm }),
  OkResponse.extend({ template_id: z.string() }),
);
export const areaTemplateDelete = defineCall(
  '/api/area_template_delete',
  z.object({ template_id: idField() }),
  OkResponse,
);

/**
 * Replaces the vehicle's list of the template's type with the template's
 * areas, in one transaction (the same as the *_areas_update call with them).
 */
export const carApplyAreaTemplate = defineCall(
  '/api/car_apply_area_template',
  z.object({ car_id: idField(), template_id: idField() }),
  OkResponse.extend({ type: z.enum(areaKinds), count: z.number().int() }),
);

/**
 * Bulk action of the vehicle list: the template applied to every selected vehicle, in one transaction
 * (all or nothing: a vehicle not visible is 404, a deleted one 409, and no vehicle changes).
 */
export const areaTemplateApplyCars = defineCall(
  '/api/area_template_apply_cars',
  z.object({
    template_id: idField(),
    car_ids: z
      .array(idField(), { error: m.invalid })
      .min(1, groupMessages.noCars)
      .max(BULK_CARS_MAX, groupMessages.tooManyCars),
  }),
  OkResponse.extend({ type: z.enum(areaKinds), count: z.number().int() }),
);
