import { SelectionCard } from '../../components/selection-card';
import { useAccountGroups, useGroupList, useSetAccountGroups } from './api';
import { groupTexts } from './texts';

const t = groupTexts.account;

/** An account's limit to groups on its edit screen: the whole company, or only the groups chosen. */
export function AccountGroupsPanel({ accountId, companyId }: { accountId: string; companyId: string }) {
  const current = useAccountGroups(accountId);
  const groups = useGroupList(companyId);
  const save = useSetAccountGroups();
  return (
    <SelectionCard
      texts={{ ...t, noOptions: t.noGroups }}
      whole={t}
      options={groups.data?.list.map((g) => ({ value: g.group_id, label: g.name }))}
      current={current}
      chosenOf={(c) => c.group_ids}
      update={save}
      save={({ ids, all }, done) =>
        save.mutate({ account_id: accountId, group_ids: all ? null : ids }, { onSuccess: done })
      }
      mt="md"
      selectMaw={480}
    />
  );
}
