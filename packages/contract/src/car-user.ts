import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { flag, idField, optionalText, requiredText } from './fields.js';
import { CountResponse, companyFilter, listFilter, listResponse, paging } from './list.js';
import {
  ExistCheckResponse,
  birthday,
  intCode,
  isRegisteredFilter,
  nullableId,
  optionalIntCode,
  phoneNumber,
  postalCode,
} from './master-fields.js';
import { validationMessages as m } from './messages.js';

/** Customers, i.e. car users (docs/product.md §3 Customer form, §7 user_*). */
export const carUserLabels = {
  user_id: '顧客ID',
  first_name: '姓',
  name: '名',
  user_name: '顧客名',
  company_id: '所属会社',
  company_name: '所属会社',
  merchant: '販売店',
  birthday: '生年月日',
  gender: '性別',
  user_postal: '郵便番号',
  user_state: '都道府県',
  user_address: '住所',
  user_address_sub: '住所（建物名・部屋番号）',
  work_postal: '勤務先郵便番号',
  work_state: '勤務先都道府県',
  work_address: '勤務先住所',
  work_address_sub: '勤務先住所（建物名など）',
  work_phone: '電話番号',
  payment_log: '支払遅延',
  state: '契約状態',
  detail: '備考',
  car_id: '車両ID',
  cars: '登録車両',
  isDelete: '削除済み',
} as const;

export const carUserSearchColumns = [
  { key: 'user_id', label: carUserLabels.user_id },
  { key: 'name', label: carUserLabels.user_name },
  { key: 'company_name', label: carUserLabels.company_name },
  { key: 'merchant', label: carUserLabels.merchant },
] as const;
/** The vehicle-add customer picker searches these (docs/product.md §3); same indexes as carUserSearchColumns. */
export const carUserPickerSearchColumns = carUserSearchColumns.slice(0, 2);
export const carUserSortColumns = ['user_id', 'name', 'company_name', 'merchant', 'payment_log', 'state'] as const;

export const carUserMessages = {
  userIdInUse: '入力された顧客IDは既に使用されています。',
  onVehicle: 'この顧客は車両に登録されているため削除できません。先に車両を削除してください。',
  otherCompany: '他社に顧客を移すことはできません。',
  companyMissing: '所属会社が見つかりません。',
} as const;

/** Customer form; also the `user` part of the registration wizard. */
export const CarUserForm = z.object({
  user_id: idField(),
  first_name: requiredText(64),
  name: requiredText(64),
  company_id: nullableId(),
  merchant: optionalText(128),
  birthday: birthday(),
  gender: optionalIntCode(0, 2),
  user_postal: postalCode(),
  user_state: optionalText(16),
  user_address: optionalText(255),
  user_address_sub: optionalText(255),
  work_postal: postalCode(),
  work_state: optionalText(16),
  work_address: optionalText(255),
  work_address_sub: optionalText(255),
  work_phone: phoneNumber(),
  payment_log: intCode(0, 3).default(0),
  state: intCode(0, 3).default(0),
  detail: optionalText(2000),
});
export type CarUserFormInput = z.input<typeof CarUserForm>;
export type CarUserFormValues = z.output<typeof CarUserForm>;

export const CarUserRow = z.object({
  user_id: z.string(),
  first_name: z.string(),
  name: z.string(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  merchant: z.string(),
  payment_log: z.number().int(),
  state: z.number().int(),
  /** A live vehicle of the customer (the first by car_id), or null. */
  car_id: z.string().nullable(),
  isDelete: z.boolean(),
});
export type CarUserRow = z.infer<typeof CarUserRow>;

export const CarUserCar = z.object({
  car_id: z.string(),
  car_number: z.string(),
  car_type: z.string(),
  car_device_id: z.string().nullable(),
  car_data_id: z.string().nullable(),
  isDelete: z.boolean(),
});
export const CarUserDetail = z.object({
  user_id: z.string(),
  first_name: z.string(),
  name: z.string(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  merchant: z.string(),
  birthday: z.string().nullable(),
  gender: z.number().int().nullable(),
  user_postal: z.string(),
  user_state: z.string(),
  user_address: z.string(),
  user_address_sub: z.string(),
  work_postal: z.string(),
  work_state: z.string(),
  work_address: z.string(),
  work_address_sub: z.string(),
  work_phone: z.string(),
  payment_log: z.number().int(),
  state: z.number().int(),
  detail: z.string(),
  car_id: z.string().nullable(),
  cars: z.array(CarUserCar),
  isDelete: z.boolean(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type CarUserDetail = z.infer<typeof CarUserDetail>;

/** isRegistered: true = customers on a live vehicle, false = not yet on one, absent = all. */
const userListFilter = { ...listFilter, ...companyFilter, isRegistered: isRegisteredFilter };
export const UserListCountRequest = z.object(userListFilter);
export const UserListRequest = z.object({ ...userListFilter, ...paging });
export const userListCount = defineCall('/api/user_list_count', UserListCountRequest, CountResponse);
export const userList = defineCall('/api/user_list', UserListRequest, listResponse(CarUserRow));

export const UserIdRequest = z.object({ user_id: idField() });
export const userGetDetail = defineCall('/api/user_get_detail', UserIdRequest, CarUserDetail);

export const UserExistCheckRequest = z.object({
  check_item: z.enum(['user_id'], { error: m.invalid }).default('user_id'),
  check_value: requiredText(64),
});
export const userExistCheck = defineCall('/api/user_exist_check', UserExistCheckRequest, ExistCheckResponse);

export const UserAddResponse = z.object({ ok: z.boolean(), user_id: z.string() });
export const userAdd = defineCall('/api/user_add', z.object({ info: CarUserForm }), UserAddResponse);
export const userUpdate = defineCall('/api/user_update', z.object({ info: CarUserForm }), OkResponse);

export const UserDeleteRequest = z.object({ user_id: idField(), isDelete: flag() });
export const userDelete = defineCall('/api/user_delete', UserDeleteRequest, OkResponse);
