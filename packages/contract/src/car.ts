import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { CarUserForm } from './car-user.js';
import { DeviceForm } from './device.js';
import { flag, idField, optionalText, requiredText } from './fields.js';
import { CountResponse, companyFilter, listFilter, listResponse, paging } from './list.js';
import { groupFilter } from './groups.js';
import { coordinate, fieldMessages, nullableId } from './master-fields.js';
import { validationMessages as m } from './messages.js';
import { TelemetryState } from './telemetry.js';

/** Vehicles (docs/product.md §3 Vehicle form, §7 car_*) and the registration wizard. */
export const carLabels = {
  car_id: '車両ID',
  car_number: '車両番号',
  car_type: '車種',
  car_vin: '車台番号',
  user_id: '顧客ID',
  user_name: '顧客名',
  merchant: '販売店',
  payment_log: '支払遅延',
  company_id: '所属会社',
  company_name: '所属会社',
  car_device_id: '端末ID',
  car_data_id: 'IMEI',
  car_status: '車両ステータス',
  device_state: '端末状態',
  available_data: '利用可能範囲',
  lat_min: '緯度（最小）',
  lat_max: '緯度（最大）',
  lng_min: '経度（最小）',
  lng_max: '経度（最大）',
  isNormal: '正常な車両のみ',
  isDelete: '削除済み',
} as const;

export const carSearchColumns = [
  { key: 'car_id', label: carLabels.car_id },
  { key: 'user_name', label: carLabels.user_name },
  { key: 'merchant', label: carLabels.merchant },
  { key: 'car_number', label: carLabels.car_number },
  { key: 'payment_log', label: carLabels.payment_log },
  // Beyond docs/product.md §3: a terminal's logs are addressed by IMEI, so its vehicle is found by it.
  { key: 'car_data_id', label: carLabels.car_data_id },
] as const;
export const carSortColumns = [
  'car_id',
  'car_number',
  'car_type',
  'user_name',
  'merchant',
  'payment_log',
  'company_name',
  'car_status',
] as const;

export const carMessages = {
  carIdInUse: '入力された車両IDは既に使用されています。',
  deviceInUse: 'この端末は既に別の車両に登録されています。',
  deviceMissing: '端末が見つからないか、削除されています。',
  userMissing: '顧客が見つからないか、削除されています。',
  deviceChangeForbidden: '端末の変更はスーパー管理者のみ行えます。',
  restoreBlocked: '顧客または端末が削除されているか、端末が別の車両で使われているため復元できません。',
  wizardFailed: '登録に失敗しました。入力内容を確認してください（何も登録されていません）。',
} as const;

const coordinates = {
  lat_min: coordinate(90, fieldMessages.latitude),
  lat_max: coordinate(90, fieldMessages.latitude),
  lng_min: coordinate(180, fieldMessages.longitude),
  lng_max: coordinate(180, fieldMessages.longitude),
};
type Bounds = { lat_min: number; lat_max: number; lng_min: number; lng_max: number };

/** The vehicle's available area: all four bounds, or none at all (null); min < max. */
export const AvailableData = z
  .object(coordinates)
  .superRefine((v, ctx) => {
    if (Object.values(v).every((x) => x === null)) return;
    for (const [key, x] of Object.entries(v))
      if (x === null) ctx.addIssue({ code: 'custom', path: [key], message: m.required });
    if (v.lat_min !== null && v.lat_max !== null && v.lat_min >= v.lat_max)
      ctx.addIssue({ code: 'custom', path: ['lat_max'], message: fieldMessages.minBelowMax });
    if (v.lng_min !== null && v.lng_max !== null && v.lng_min >= v.lng_max)
      ctx.addIssue({ code: 'custom', path: ['lng_max'], message: fieldMessages.minBelowMax });
  })
  .transform((v) => (Object.values(v).every((x) => x === null) ? null : (v as Bounds)))
  .nullish()
  .transform((v) => v ?? null);
export const AvailableDataOut = z.object({
  lat_min: z.number(),
  lat_max: z.number(),
  lng_min: z.number(),
  lng_max: z.number(),
});

/** Vehicle registration and edit form. car_data_id is not entered: it is the terminal's IMEI. */
export const CarForm = z.object({
  car_id: idField(),
  car_number: requiredText(32),
  car_type: optionalText(64),
  car_vin: optionalText(32),
  user_id: idField(),
  /** The terminal on the vehicle; null: none yet. */
  car_device_id: nullableId(),
  available_data: AvailableData,
});
export type CarFormInput = z.input<typeof CarForm>;

/**
 * What a vehicle list row shows of its terminal's latest state: the four state badges and 最終受信
 * (the list's live updates carry whole states; these are the fields it reads of them). The position and
 * the battery are the detail's and the fleet map's.
 */
export const CarListState = TelemetryState.pick({
  engine_running: true,
  engine_line: true,
  connection: true,
  device_state: true,
  last_seen_at: true,
});
export type CarListState = z.infer<typeof CarListState>;

export const CarRow = z.object({
  car_id: z.string(),
  car_number: z.string(),
  car_type: z.string(),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  merchant: z.string().nullable(),
  payment_log: z.number().int().nullable(),
  /** The customer's contract state (docs/product.md §4). */
  user_state: z.number().int().nullable(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  car_device_id: z.string().nullable(),
  car_data_id: z.string().nullable(),
  car_status: z.number().int(),
  latest: CarListState.nullable(),
  isDelete: z.boolean(),
});
export type CarRow = z.infer<typeof CarRow>;

export const CarDetail = z.object({
  car_id: z.string(),
  car_number: z.string(),
  car_type: z.string(),
  car_vin: z.string(),
  user_id: z.string().nullable(),
  car_device_id: z.string().nullable(),
  car_data_id: z.string().nullable(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  car_status: z.number().int(),
  available_data: AvailableDataOut.nullable(),
  user: z
    .object({
      user_id: z.string(),
      first_name: z.string(),
      name: z.string(),
      merchant: z.string(),
      work_phone: z.string(),
      payment_log: z.number().int(),
      state: z.number().int(),
      isDelete: z.boolean(),
    })
    .nullable(),
  device: z
    .object({
      car_device_id: z.string(),
      car_data_id: z.string(),
      ipaddr: z.string(),
      macaddr: z.string(),
      car_type: z.string(),
      isDelete: z.boolean(),
    })
    .nullable(),
  latest: TelemetryState.nullable(),
  isDelete: z.boolean(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type CarDetail = z.infer<typeof CarDetail>;

/** isNormal: only vehicles whose terminal last reported device_state 0 (正常). */
const carListFilter = { ...listFilter, ...companyFilter, ...groupFilter, isNormal: flag().default(false) };
export const CarListCountRequest = z.object(carListFilter);
export const CarListRequest = z.object({ ...carListFilter, ...paging });
export const carListCount = defineCall('/api/car_list_count', CarListCountRequest, CountResponse);
export const carList = defineCall('/api/car_list', CarListRequest, listResponse(CarRow));

export const carGetNewid = defineCall('/api/car_get_newid', z.object({}).optional(), z.object({ newid: z.string() }));

export const CarIdRequest = z.object({ car_id: idField() });
export const carGetDetail = defineCall('/api/car_get_detail', CarIdRequest, CarDetail);

export const CarAddResponse = z.object({ ok: z.boolean(), car_id: z.string() });
export const carAdd = defineCall('/api/car_add', z.object({ info: CarForm }), CarAddResponse);
export const carUpdate = defineCall('/api/car_update', z.object({ info: CarForm }), OkResponse);

export const CAR_STATUS_MAX = 99;
/**
 * What a car_status code means on screen (docs/product.md leaves the values open; docs/decisions.md).
 * Codes without a name (up to CAR_STATUS_MAX) are kept and shown by number.
 */
export const carStatuses: Record<number, string> = {
  0: '通常',
  1: '点検・整備中',
  2: '利用休止',
  3: '返却・回収待ち',
};
export const carStatusLabel = (code: number): string => {
  const name = carStatuses[code];
  return name ? `${name}（${code}）` : `コード ${code}`;
};
export const carStatusMessages = { saved: (label: string) => `車両ステータスを「${label}」に更新しました。` } as const;
export const CarStatusUpdateRequest = z.object({
  car_id: idField(),
  car_status: z.number({ error: m.number }).int(m.number).min(0, m.invalid).max(CAR_STATUS_MAX, m.invalid),
});
export const carStatusUpdate = defineCall('/api/car_status_update', CarStatusUpdateRequest, OkResponse);

export const CarDeleteRequest = z.object({ car_id: idField(), isDelete: flag() });
export const carDelete = defineCall('/api/car_delete', CarDeleteRequest, OkResponse);

/** The vehicle part of the registration wizard: customer and terminal come from the other two parts. */
export const WizardCarForm = CarForm.omit({ user_id: true, car_device_id: true });
/** Registration wizard: customer, terminal and vehicle in one transaction; errors keyed 'user.x', 'device.x', 'car.x'. */
export const CarUserDeviceAddRequest = z.object({ user: CarUserForm, device: DeviceForm, car: WizardCarForm });
export type CarUserDeviceAddInput = z.input<typeof CarUserDeviceAddRequest>;
export const CarUserDeviceAddResponse = z.object({
  ok: z.boolean(),
  user_id: z.string(),
  car_device_id: z.string(),
  car_id: z.string(),
});
export const carUserDeviceAdd = defineCall(
  '/api/car_user_device_add',
  CarUserDeviceAddRequest,
  CarUserDeviceAddResponse,
);
