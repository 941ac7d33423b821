import { companyAdd, companyDelete, companyGetDetail, companyUpdate, type CompanyFormInput } from '@fleet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

export const companyKeys = { all: ['company'] as const, detail: (id: string) => ['company', 'detail', id] as const };

export const companyDetailQuery = (company_id: string) =>
  queryOptions({
    queryKey: companyKeys.detail(company_id),
    queryFn: ({ signal }) => callApi(companyGetDetail, { company_id }, { signal }),
  });

export const useCompanyDetail = (company_id: string) => useQuery(companyDetailQuery(company_id));

export const useAddCompany = () =>
  useDomainMutation(companyKeys.all[0], (info: CompanyFormInput) => callApi(companyAdd, { info }));
export const useUpdateCompany = () =>
  useDomainMutation(companyKeys.all[0], (info: CompanyFormInput) => callApi(companyUpdate, { info }));
export const useDeleteCompany = () =>
  useDomainMutation(companyKeys.all[0], (v: { company_id: string; isDelete: boolean }) => callApi(companyDelete, v));
