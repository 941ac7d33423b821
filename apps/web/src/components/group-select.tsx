import { groupLabels, groupList } from '@fleet/contract';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../lib/api-client';

/**
 * The 拠点・部署 filter of the vehicle list, the fleet map and the reports (docs/groups.md): the groups the
 * caller sees, of the company chosen (the super admin's company filter) or every company. The key is the
 * groups feature's list key, so a change on the group screen refreshes it.
 */
export function GroupSelect({
  value,
  onChange,
  companyId,
  w = 200,
}: {
  value: string | null;
  onChange(v: string | null): void;
  companyId?: string | null;
  w?: number;
}) {
  const q = useQuery({
    queryKey: ['groups', 'list', companyId ?? ''],
    queryFn: ({ signal }) => callApi(groupList, companyId ? { company_id: companyId } : {}, { signal }),
    staleTime: 30_000,
  });
  const several = new Set(q.data?.list.map((g) => g.company_id)).size > 1;
  const data = (q.data?.list ?? []).map((g) => ({
    value: g.group_id,
    label: several && g.company_name ? `${g.name}（${g.company_name}）` : g.name,
  }));
  return (
    <Select
      label={groupLabels.groups}
      placeholder="すべての拠点・部署"
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="該当する拠点・部署がありません"
      w={w}
    />
  );
}
