import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { flag, idField, optionalText, password } from './fields.js';
import { CountResponse, listFilter, listResponse, paging } from './list.js';
import {
  ExistCheckResponse,
  ipAddress,
  isRegisteredFilter,
  macAddress,
  optionalPassword,
  terminalId,
} from './master-fields.js';
import { errorMessages, validationMessages as m } from './messages.js';
import { TelemetryState } from './telemetry.js';
import { commandText, terminalIdRules, terminalProtocol, terminalProtocols } from './terminal-protocol.js';

/** GPS terminals (docs/product.md §3 GPS device form, §7 device_*). Super admin only. */
export const deviceLabels = {
  car_device_id: '端末ID',
  password: '端末パスワード',
  ipaddr: 'IPアドレス',
  macaddr: 'MACアドレス',
  car_type: '車種',
  car_data_id: 'IMEI',
  car_id: '登録車両',
  isDelete: '削除済み',
  protocol: '通信プロトコル',
  cmd_cut_text: '禁止コマンド',
  cmd_restore_text: '許可コマンド',
} as const;

export const deviceSearchColumns = [
  { key: 'car_device_id', label: deviceLabels.car_device_id },
  { key: 'ipaddr', label: deviceLabels.ipaddr },
  { key: 'macaddr', label: deviceLabels.macaddr },
  { key: 'car_data_id', label: deviceLabels.car_data_id },
  { key: 'car_type', label: deviceLabels.car_type },
] as const;
/** The vehicle-add device picker searches car_device_id ('0') and car_type ('4') of deviceSearchColumns. */
export const devicePickerSearchColumns = [deviceSearchColumns[0], deviceSearchColumns[4]] as const;
export const deviceSortColumns = ['car_device_id', 'ipaddr', 'macaddr', 'car_data_id', 'car_type', 'car_id'] as const;

export const deviceMessages = {
  imeiInUse: errorMessages.imeiInUse,
  deviceIdInUse: '入力された端末IDは既に使用されています。',
  onVehicle: 'この端末は車両に登録されているため削除できません。先に車両から外してください。',
} as const;

const deviceFields = {
  car_device_id: idField(),
  ipaddr: ipAddress(),
  macaddr: macAddress(),
  car_type: optionalText(64),
  /** The terminal's id (an IMEI for most protocols; the protocol's rule below). Telemetry is keyed by it. */
  car_data_id: z.string({ error: m.required }).trim().min(1, m.required),
  /** What the terminal speaks (terminal-protocol.ts); absent: ours (json). */
  protocol: terminalProtocol(),
  /** Overrides of the immobiliser command text for binary protocols; empty: the protocol's default. */
  cmd_cut_text: commandText(),
  cmd_restore_text: commandText(),
};
/** The id rule of the chosen protocol (an IMEI for most, 10-digit H02 ids, 12/20-digit JT/T 808 numbers). */
const idOfProtocol = (
  v: { car_data_id: string; protocol: keyof typeof terminalIdRules },
  ctx: z.RefinementCtx<{ car_data_id: string; protocol: keyof typeof terminalIdRules }>,
) => {
  const rule = terminalIdRules[v.protocol] as (typeof terminalIdRules)[keyof typeof terminalIdRules] | undefined;
  if (!rule || typeof v.car_data_id !== 'string' || v.car_data_id === '') return;
  if (!rule.pattern.test(v.car_data_id)) ctx.addIssue({ code: 'custom', path: ['car_data_id'], message: rule.message });
};
/** Terminal registration form; `password` is the terminal's secret for the device protocol. */
export const DeviceForm = z.object({ ...deviceFields, password: password() }).superRefine(idOfProtocol);
/** Terminal edit form: an empty password keeps the current secret. */
export const DeviceEditForm = z.object({ ...deviceFields, password: optionalPassword() }).superRefine(idOfProtocol);
export type DeviceFormInput = z.input<typeof DeviceForm>;
export type DeviceEditFormInput = z.input<typeof DeviceEditForm>;

export const DeviceRow = z.object({
  car_device_id: z.string(),
  ipaddr: z.string(),
  macaddr: z.string(),
  car_type: z.string(),
  car_data_id: z.string(),
  /** The live vehicle the terminal is on, or null. */
  car_id: z.string().nullable(),
  isDelete: z.boolean(),
});
export type DeviceRow = z.infer<typeof DeviceRow>;
/** A row of the terminal list: a DeviceRow (as the vehicle screens' picker shows it) with its protocol. */
export const DeviceListRow = DeviceRow.extend({
  protocol: z.enum(terminalProtocols),
  cmd_cut_text: z.string(),
  cmd_restore_text: z.string(),
});
export type DeviceListRow = z.infer<typeof DeviceListRow>;
export const DeviceCar = z.object({
  car_id: z.string(),
  car_number: z.string(),
  car_type: z.string(),
  user_id: z.string().nullable(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
});
export const DeviceDetail = DeviceListRow.extend({
  car: DeviceCar.nullable(),
  latest: TelemetryState.nullable(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type DeviceDetail = z.infer<typeof DeviceDetail>;

/** isRegistered: true = on a live vehicle, false = free, absent = all. No companyId (docs/product.md §7). */
const deviceListFilter = { ...listFilter, isRegistered: isRegisteredFilter };
export const DeviceListCountRequest = z.object(deviceListFilter);
export const DeviceListRequest = z.object({ ...deviceListFilter, ...paging });
export const deviceListCount = defineCall('/api/device_list_count', DeviceListCountRequest, CountResponse);
export const deviceList = defineCall('/api/device_list', DeviceListRequest, listResponse(DeviceListRow));

export const DeviceIdRequest = z.object({ car_device_id: idField() });
export const deviceGetDetail = defineCall('/api/device_get_detail', DeviceIdRequest, DeviceDetail);

export const DeviceExistCheckRequest = z.object({
  check_item: z.enum(['car_device_id', 'car_data_id'], { error: m.invalid }),
  check_value: z.string({ error: m.required }).trim().min(1, m.required).max(64, m.tooLong),
});
export const deviceExistCheck = defineCall('/api/device_exist_check', DeviceExistCheckRequest, ExistCheckResponse);

export const DeviceAddResponse = z.object({ ok: z.boolean(), car_device_id: z.string() });
export const deviceAdd = defineCall('/api/device_add', z.object({ info: DeviceForm }), DeviceAddResponse);
export const deviceUpdate = defineCall('/api/device_update', z.object({ info: DeviceEditForm }), OkResponse);

export const DeviceDeleteRequest = z.object({ car_device_id: idField(), car_data_id: terminalId(), isDelete: flag() });
export const deviceDelete = defineCall('/api/device_delete', DeviceDeleteRequest, OkResponse);
