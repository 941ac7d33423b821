import { z } from 'zod';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { idField, requiredText } from './fields.js';
import { validationMessages as m } from './messages.js';
import { timestamp } from './wire.js';

/**
 * Vehicle groups (拠点・部署, docs/groups.md): a company's vehicles organised by branch or department. A
 * vehicle may be in several groups; an account may be limited to groups, and then sees only their
 * vehicles, everywhere (the access layer decides it once per request).
 */
export const GROUP_NAME_MAX = 64;
/** At most this many groups named in one call (a vehicle's groups, an account's). */
export const GROUPS_PER_CALL_MAX = 200;
/** At most this many vehicles assigned in one bulk call. */
export const BULK_CARS_MAX = 1000;

export const groupLabels = {
  title: '拠点・部署',
  name: '拠点・部署名',
  company_id: '会社',
  car_count: '車両数',
  groups: '拠点・部署',
  limited: '拠点・部署で制限する',
  limitedHelp: '制限すると、選んだ拠点・部署の車両だけが見えます（一覧、地図、ログ、エンジン制御、レポート、通知）。',
} as const;

export const groupMessages = {
  notFound: '拠点・部署が見つかりません。',
  duplicate: '同じ名前の拠点・部署がすでにあります',
  otherCompany: '他の会社の拠点・部署は指定できません',
  otherCompanyField: '他の会社を指定することはできません',
  companyMissing: '会社が見つかりません',
  companyRequired: '会社を選択してください',
  limitedAccount: '拠点・部署で制限されたアカウントは拠点・部署を変更できません',
  selfLimit: '自分のアカウントは拠点・部署で制限できません',
  carDeleted: '削除された車両の拠点・部署は変更できません。',
  tooMany: `一度に指定できるのは${GROUPS_PER_CALL_MAX}件までです`,
  tooManyCars: `一度に指定できる車両は${BULK_CARS_MAX}台までです`,
  noCars: '車両を選択してください',
  fetchFailed: '拠点・部署を取得できませんでした。管理者に問い合わせてください。',
  saveFailed: '拠点・部署の保存に失敗しました。管理者に問い合わせてください。',
} as const;

const groupIds = () => z.array(idField(), { error: m.invalid }).max(GROUPS_PER_CALL_MAX, groupMessages.tooMany);

export const GroupInfo = z.object({
  name: requiredText(GROUP_NAME_MAX),
  /** The super admin names the company; everyone else's own is taken. */
  company_id: idField().nullish(),
});
export type GroupInfo = z.infer<typeof GroupInfo>;

export const Group = z.object({
  group_id: z.string(),
  company_id: z.string(),
  company_name: z.string().nullable(),
  name: z.string(),
  car_count: z.coerce.number().int(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type Group = z.infer<typeof Group>;

export const groupAdd = defineCall(
  '/api/group_add',
  z.object({ info: GroupInfo }),
  OkResponse.extend({ group_id: z.string() }),
);
/** A company's groups (a group-limited account: its own groups); the super admin may name the company. */
export const groupList = defineCall(
  '/api/group_list',
  z.object({ company_id: idField().nullish() }),
  z.object({ list: z.array(Group) }),
);
export const groupUpdate = defineCall(
  '/api/group_update',
  z.object({ group_id: idField(), info: z.object({ name: requiredText(GROUP_NAME_MAX) }) }),
  OkResponse,
);
export const groupDelete = defineCall('/api/group_delete', z.object({ group_id: idField() }), OkResponse);

/** A vehicle's groups, replaced as a whole. */
export const carGroupsUpdate = defineCall(
  '/api/car_groups_update',
  z.object({ car_id: idField(), group_ids: groupIds() }),
  OkResponse,
);
export const carGroups = defineCall(
  '/api/car_groups',
  z.object({ car_id: idField() }),
  z.object({ groups: z.array(z.object({ group_id: z.string(), name: z.string() })) }),
);
/** Bulk action of the vehicle list: the selected vehicles join a group (those already in it stay). */
export const groupCarsAdd = defineCall(
  '/api/group_cars_add',
  z.object({
    group_id: idField(),
    car_ids: z
      .array(idField(), { error: m.invalid })
      .min(1, groupMessages.noCars)
      .max(BULK_CARS_MAX, groupMessages.tooManyCars),
  }),
  OkResponse.extend({ count: z.number().int() }),
);

/** An account's limit to groups: null, the whole company; a list (even empty), only those groups. */
export const accountGroups = defineCall(
  '/api/account_groups',
  z.object({ account_id: idField() }),
  z.object({ group_ids: z.array(z.string()).nullable() }),
);
export const accountGroupsUpdate = defineCall(
  '/api/account_groups_update',
  z.object({ account_id: idField(), group_ids: groupIds().nullable() }),
  OkResponse,
);

/** The `group_id` filter of the vehicle list, the fleet map and the reports: only that group's vehicles. */
export const groupFilter = { group_id: idField().nullish() };
