import { groupMessages } from '@fleet/contract';
import { Select } from '@mantine/core';
import { useState } from 'react';
import { BulkAction } from '../../components/bulk-action';
import { useAddCarsToGroup, useGroupList } from './api';
import { groupTexts } from './texts';

const t = groupTexts.bulk;

/** The vehicle list's bulk action: the vehicles picked join a group. */
export function BulkGroup({
  carIds,
  companyId,
  onDone,
}: {
  carIds: string[];
  companyId: string | null;
  onDone(message: string): void;
}) {
  const groups = useGroupList(companyId, carIds.length > 0);
  const add = useAddCarsToGroup();
  const [groupId, setGroupId] = useState<string | null>(null);
  const several = new Set(groups.data?.list.map((g) => g.company_id)).size > 1;
  return (
    <BulkAction
      label={t.button}
      title={t.title}
      count={carIds.length}
      ready={!!groupId}
      pending={add.isPending}
      error={add.error}
      failed={groupMessages.saveFailed}
      onApply={async () => {
        const r = await add.mutateAsync({ group_id: groupId!, car_ids: carIds });
        const name = groups.data?.list.find((g) => g.group_id === groupId)?.name ?? '';
        onDone(t.done(name, carIds.length, r.count));
      }}
    >
      <Select
        label={t.label}
        placeholder={groupTexts.car.placeholder}
        data={(groups.data?.list ?? []).map((g) => ({
          value: g.group_id,
          label: several && g.company_name ? `${g.name}（${g.company_name}）` : g.name,
        }))}
        value={groupId}
        onChange={setGroupId}
        searchable
        nothingFoundMessage={groupTexts.emptyFiltered}
        comboboxProps={{ withinPortal: true }}
      />
    </BulkAction>
  );
}
