import { zoneMessages } from '@fleet/contract';
import { MultiSelect, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BulkAction } from '../../components/bulk-action';
import { useAddZonesToCars, zoneListQuery } from './api';
import { zoneTexts } from './texts';

const t = zoneTexts.bulk;

/** The vehicle list's bulk action: zones added to every vehicle picked (all or nothing). */
export function BulkZones({
  carIds,
  companyId,
  onDone,
}: {
  carIds: string[];
  companyId: string | null;
  onDone(message: string): void;
}) {
  const zones = useQuery({ ...zoneListQuery(companyId), enabled: carIds.length > 0 });
  const add = useAddZonesToCars();
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <BulkAction
      label={t.button}
      title={t.title}
      count={carIds.length}
      ready={chosen.length > 0}
      pending={add.isPending}
      error={add.error}
      failed={zoneMessages.saveFailed}
      onApply={async () => {
        const r = await add.mutateAsync({ zone_ids: chosen, car_ids: carIds });
        onDone(t.done(carIds.length, chosen.length, r.count));
        setChosen([]);
      }}
    >
      <MultiSelect
        label={t.label}
        placeholder={zoneTexts.assign.placeholder}
        data={(zones.data?.list ?? []).map((z) => ({ value: z.zone_id, label: z.name }))}
        value={chosen}
        onChange={setChosen}
        searchable
        clearable
        nothingFoundMessage={zoneTexts.empty}
        comboboxProps={{ withinPortal: true }}
      />
      <Text size="xs" c="dimmed">
        {t.help}
      </Text>
    </BulkAction>
  );
}
