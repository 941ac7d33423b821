import {
  accountGroups,
  accountGroupsUpdate,
  carGroups,
  carGroupsUpdate,
  groupAdd,
  groupCarsAdd,
  groupDelete,
  groupList,
  groupUpdate,
  groupZones,
  groupZonesUpdate,
  zoneList,
} from '@fleet/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/**
 * Vehicle groups (docs/groups.md). Every query key starts with 'groups', and every change refreshes them
 * all. The list is shared with the shared group filter (components/group-select.tsx), which uses the same key.
 */
export const groupKeys = {
  all: ['groups'] as const,
  list: (companyId: string) => ['groups', 'list', companyId] as const,
  car: (carId: string) => ['groups', 'car', carId] as const,
  account: (accountId: string) => ['groups', 'account', accountId] as const,
  zones: (groupId: string) => ['groups', 'zones', groupId] as const,
  zoneOptions: (companyId: string) => ['groups', 'zone-options', companyId] as const,
};

export const groupListQuery = (company_id?: string | null) =>
  queryOptions({
    queryKey: groupKeys.list(company_id ?? ''),
    queryFn: ({ signal }) => callApi(groupList, company_id ? { company_id } : {}, { signal }),
  });
export const useGroupList = (company_id?: string | null, enabled = true) =>
  useQuery({ ...groupListQuery(company_id), enabled });
export const useCarGroups = (car_id: string) =>
  useQuery({ queryKey: groupKeys.car(car_id), queryFn: ({ signal }) => callApi(carGroups, { car_id }, { signal }) });
export const useAccountGroups = (account_id: string) =>
  useQuery({
    queryKey: groupKeys.account(account_id),
    queryFn: ({ signal }) => callApi(accountGroups, { account_id }, { signal }),
  });
export const useGroupZones = (group_id: string) =>
  useQuery({
    queryKey: groupKeys.zones(group_id),
    queryFn: ({ signal }) => callApi(groupZones, { group_id }, { signal }),
  });
/** The company's zones to choose from for a group. */
export const useZoneOptions = (company_id: string) =>
  useQuery({
    queryKey: groupKeys.zoneOptions(company_id),
    queryFn: ({ signal }) => callApi(zoneList, { company_id }, { signal }),
    select: (r) => r.list.map((z) => ({ value: z.zone_id, label: z.name })),
  });

const domain = groupKeys.all[0];
export const useAddGroup = () =>
  useDomainMutation(domain, (v: { name: string; company_id?: string | null }) => callApi(groupAdd, { info: v }));
export const useRenameGroup = () =>
  useDomainMutation(domain, (v: { group_id: string; name: string }) =>
    callApi(groupUpdate, { group_id: v.group_id, info: { name: v.name } }),
  );
export const useDeleteGroup = () => useDomainMutation(domain, (group_id: string) => callApi(groupDelete, { group_id }));
export const useSetCarGroups = () =>
  useDomainMutation(domain, (v: { car_id: string; group_ids: string[] }) => callApi(carGroupsUpdate, v));
export const useSetAccountGroups = () =>
  useDomainMutation(domain, (v: { account_id: string; group_ids: string[] | null }) => callApi(accountGroupsUpdate, v));
export const useSetGroupZones = () =>
  useDomainMutation(domain, (v: { group_id: string; zone_ids: string[] }) => callApi(groupZonesUpdate, v));
/** The vehicle list's bulk action: its group filter may now show other rows, so the lists refresh too. */
export function useAddCarsToGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { group_id: string; car_ids: string[] }) => callApi(groupCarsAdd, v),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: [domain] }), qc.invalidateQueries({ queryKey: ['car'] })]),
  });
}
