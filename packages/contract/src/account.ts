import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { email, flag, idField, password, requiredText } from './fields.js';
import { CountResponse, companyFilter, listFilter, listResponse, paging } from './list.js';
import { ExistCheckResponse, intCode, nullableId, optionalPassword } from './master-fields.js';
import { validationMessages as m } from './messages.js';

/** Admin accounts (docs/product.md §3 Account, §7 account_* and password_reset). */
export const accountLabels = {
  account_id: 'アカウントID',
  name: '氏名',
  email: 'メールアドレス',
  role: '権限',
  engine_control: 'エンジン制御権限',
  company_id: '所属会社',
  company_name: '所属会社',
  password: 'パスワード',
  password_confirm: 'パスワード（確認）',
  current_password: '現在のパスワード',
  isDelete: '削除済み',
} as const;

/** Search columns in index order: search_item '0' is the first (docs/product.md §3). */
export const accountSearchColumns = [
  { key: 'account_id', label: accountLabels.account_id },
  { key: 'name', label: accountLabels.name },
  { key: 'email', label: accountLabels.email },
  { key: 'role', label: accountLabels.role },
] as const;
export const accountSortColumns = ['account_id', 'name', 'email', 'role', 'company_name'] as const;

export const accountMessages = {
  selfDelete: '自分自身のアカウントは削除できません。',
  selfRole: '自分自身の権限・所属会社は変更できません。',
  roleNotAllowed: 'この権限を付与することはできません。',
  selfEngineControl: 'ご自身のエンジン制御権限は変更できません。',
  otherCompany: '他社のアカウントは登録・変更できません。',
  currentPasswordWrong: '現在のパスワードが正しくありません。',
  tooManyPasswordAttempts: 'パスワードの確認回数が上限に達しました。しばらく時間をおいてから再度お試しください。',
  accountIdInUse: '入力されたアカウントIDは既に使用されています。',
  emailInUse: '入力されたメールアドレスは既に使用されています。',
  companyMissing: '所属会社が見つかりません。',
} as const;

const accountFields = {
  account_id: idField(),
  name: requiredText(64),
  email: email(),
  role: intCode(0, 2),
  /** null: the provider itself (with role 0, a super admin). */
  company_id: nullableId(),
  /** エンジン制御権限; absent on add: on for roles 0-1, off for role 2. Absent on edit: unchanged. */
  engine_control: z.boolean({ error: m.invalid }).optional(),
};

const passwordsMatch = (v: { password: string; password_confirm: string }, ctx: z.RefinementCtx) => {
  if (v.password !== v.password_confirm)
    ctx.addIssue({ code: 'custom', path: ['password_confirm'], message: m.confirmed });
};

/** Account registration form. */
export const AccountForm = z
  .object({
    ...accountFields,
    password: password(),
    password_confirm: z.string({ error: m.required }).min(1, m.required),
  })
  .superRefine(passwordsMatch);
/** Account edit form: an empty password keeps the current one. */
export const AccountEditForm = z
  .object({
    ...accountFields,
    password: optionalPassword(),
    password_confirm: z.string({ error: m.invalid }).optional().default(''),
  })
  .superRefine(passwordsMatch);
export type AccountFormInput = z.input<typeof AccountForm>;
export type AccountEditFormInput = z.input<typeof AccountEditForm>;

export const AccountRow = z.object({
  account_id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.number().int(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  engine_control: z.boolean(),
  isDelete: z.boolean(),
});
export type AccountRow = z.infer<typeof AccountRow>;
export const AccountDetail = AccountRow.extend({ created_at: timestamp(), updated_at: timestamp() });
export type AccountDetail = z.infer<typeof AccountDetail>;

export const AccountListCountRequest = z.object({ ...listFilter, ...companyFilter });
export const AccountListRequest = z.object({ ...listFilter, ...companyFilter, ...paging });
export const accountListCount = defineCall('/api/account_list_count', AccountListCountRequest, CountResponse);
export const accountList = defineCall('/api/account_list', AccountListRequest, listResponse(AccountRow));

export const AccountIdRequest = z.object({ account_id: idField() });
export const accountGetDetail = defineCall('/api/account_get_detail', AccountIdRequest, AccountDetail);

export const AccountExistCheckRequest = z.object({
  check_item: z.enum(['account_id', 'email'], { error: m.invalid }),
  check_value: requiredText(254),
});
export const accountExistCheck = defineCall('/api/account_exist_check', AccountExistCheckRequest, ExistCheckResponse);

export const AccountAddResponse = z.object({ ok: z.boolean(), account_id: z.string() });
export const accountAdd = defineCall('/api/account_add', z.object({ info: AccountForm }), AccountAddResponse);
export const accountUpdate = defineCall('/api/account_update', z.object({ info: AccountEditForm }), OkResponse);

export const AccountDeleteRequest = z.object({ account_id: idField(), isDelete: flag() });
export const accountDelete = defineCall('/api/account_delete', AccountDeleteRequest, OkResponse);

/**
 * Password change. Without account_id (or with one's own) the current password
 * is required; a manager may set the password of an account they manage without it.
 */
const passwordChangeFields = {
  account_id: nullableId(),
  current_password: z.string({ error: m.invalid }).max(128, m.tooLong).optional(),
  password: password(),
  password_confirm: z.string({ error: m.required }).min(1, m.required),
};
export const PasswordResetForm = z.object(passwordChangeFields).superRefine(passwordsMatch);
export type PasswordResetFormInput = z.input<typeof PasswordResetForm>;
/** The signed-in user's own change (the console's パスワード変更 screen): the current password is required. */
export const OwnPasswordChangeForm = z
  .object({
    ...passwordChangeFields,
    current_password: z.string({ error: m.required }).min(1, m.required).max(128, m.tooLong),
  })
  .superRefine(passwordsMatch);
export const passwordReset = defineCall('/api/password_reset', z.object({ info: PasswordResetForm }), OkResponse);
