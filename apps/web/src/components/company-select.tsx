import { companyList } from '@fleet/contract';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../lib/api-client';

/** docs/product.md §6/§9: the company selection lists up to 1000 companies by company_id ascending. */
export const COMPANY_OPTIONS_LIMIT = 1000;

export function useCompanyOptions(enabled = true) {
  return useQuery({
    queryKey: ['company', 'options'],
    queryFn: ({ signal }) =>
      callApi(
        companyList,
        {
          offset: 0,
          limit: COMPANY_OPTIONS_LIMIT,
          sorts: 'company_id asc',
          search_item: '0',
          search_text: '',
          isDelete: false,
        },
        { signal },
      ),
    select: (r) => r.list.map((c) => ({ value: c.company_id, label: `${c.company_name}（${c.company_id}）` })),
    staleTime: 60_000,
    enabled,
  });
}

export function CompanySelect({
  value,
  onChange,
  label = '加盟店',
}: {
  value: string | null;
  onChange(v: string | null): void;
  label?: string;
}) {
  const options = useCompanyOptions();
  return (
    <Select
      label={label}
      placeholder="すべての加盟店"
      data={options.data ?? []}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="該当する加盟店がありません"
      w={240}
    />
  );
}
