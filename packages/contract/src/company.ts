import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { flag, idField, optionalText, requiredText } from './fields.js';
import { CountResponse, listFilter, listResponse, paging, PAGE_SIZE } from './list.js';
import { optionalEmail, phoneNumber } from './master-fields.js';
import { validationMessages as m } from './messages.js';

/** Franchise companies (docs/product.md §3 Company form, §7 company_*). Super admin only. */
export const companyLabels = {
  company_id: '会社ID',
  company_name: '会社名',
  name: '担当者名',
  address: '住所',
  phone: '電話番号',
  email: 'メールアドレス',
  isDelete: '削除済み',
  account_count: 'アカウント数',
  user_count: '顧客数',
  car_count: '車両数',
} as const;

export const companySearchColumns = [
  { key: 'company_id', label: companyLabels.company_id },
  { key: 'company_name', label: companyLabels.company_name },
  { key: 'name', label: companyLabels.name },
  { key: 'address', label: companyLabels.address },
  { key: 'phone', label: companyLabels.phone },
  { key: 'email', label: companyLabels.email },
] as const;
export const companySortColumns = ['company_id', 'company_name', 'name', 'address', 'phone', 'email'] as const;

export const companyMessages = {
  companyIdInUse: '入力された会社IDは既に使用されています。',
  stillInUse: 'この会社には有効なアカウント・顧客・車両が登録されているため削除できません。',
} as const;

/** The company dropdown fetches up to this many companies at once (docs/product.md §9). */
export const COMPANY_LIST_MAX = 1000;

export const CompanyForm = z.object({
  company_id: idField(),
  company_name: requiredText(128),
  name: optionalText(64),
  address: optionalText(255),
  phone: phoneNumber(),
  email: optionalEmail(),
});
export type CompanyFormInput = z.input<typeof CompanyForm>;

export const CompanyRow = z.object({
  company_id: z.string(),
  company_name: z.string(),
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  isDelete: z.boolean(),
});
export type CompanyRow = z.infer<typeof CompanyRow>;
export const CompanyDetail = CompanyRow.extend({
  account_count: z.number().int(),
  user_count: z.number().int(),
  car_count: z.number().int(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type CompanyDetail = z.infer<typeof CompanyDetail>;

export const CompanyListCountRequest = z.object({ ...listFilter });
export const CompanyListRequest = z.object({
  ...listFilter,
  ...paging,
  limit: z.number({ error: m.number }).int().min(1).max(COMPANY_LIST_MAX).default(PAGE_SIZE),
});
export const companyListCount = defineCall('/api/company_list_count', CompanyListCountRequest, CountResponse);
export const companyList = defineCall('/api/company_list', CompanyListRequest, listResponse(CompanyRow));

export const CompanyIdRequest = z.object({ company_id: idField() });
export const companyGetDetail = defineCall('/api/company_get_detail', CompanyIdRequest, CompanyDetail);

export const CompanyAddResponse = z.object({ ok: z.boolean(), company_id: z.string() });
export const companyAdd = defineCall('/api/company_add', z.object({ info: CompanyForm }), CompanyAddResponse);
export const companyUpdate = defineCall('/api/company_update', z.object({ info: CompanyForm }), OkResponse);

export const CompanyDeleteRequest = z.object({ company_id: idField(), isDelete: flag() });
export const companyDelete = defineCall('/api/company_delete', CompanyDeleteRequest, OkResponse);
