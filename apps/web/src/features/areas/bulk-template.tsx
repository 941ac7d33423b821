import { areaKindLabels, areaKinds, areaMessages } from '@fleet/contract';
import { Select, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { BulkAction } from '../../components/bulk-action';
import { templatesQuery, useApplyTemplateToCars } from './api';
import { areaTexts } from './texts';

const t = areaTexts.bulk;

/** The vehicle list's bulk action: an area template applied to every vehicle picked (all or nothing). */
export function BulkTemplate({ carIds, onDone }: { carIds: string[]; onDone(message: string): void }) {
  const lists = useQueries({
    queries: areaKinds.map((kind) => ({ ...templatesQuery(kind), enabled: carIds.length > 0 })),
  });
  const templates = lists.flatMap((q) => q.data?.list ?? []);
  const apply = useApplyTemplateToCars();
  const [templateId, setTemplateId] = useState<string | null>(null);
  return (
    <BulkAction
      label={t.button}
      title={t.title}
      count={carIds.length}
      ready={!!templateId}
      pending={apply.isPending}
      error={apply.error}
      failed={areaMessages.templateApplyFailed}
      onApply={async () => {
        const r = await apply.mutateAsync({ template_id: templateId!, car_ids: carIds });
        const name = templates.find((x) => x.template_id === templateId)?.name ?? '';
        onDone(t.done(r.count, name, areaKindLabels[r.type]));
      }}
    >
      <Select
        label={t.label}
        placeholder={areaTexts.templates.choose}
        data={areaKinds
          .map((kind) => ({
            group: areaKindLabels[kind],
            items: templates.filter((x) => x.type === kind).map((x) => ({ value: x.template_id, label: x.name })),
          }))
          .filter((g) => g.items.length > 0)}
        value={templateId}
        onChange={setTemplateId}
        searchable
        nothingFoundMessage={t.none}
        comboboxProps={{ withinPortal: true }}
      />
      <Text size="xs" c="dimmed">
        {t.help}
      </Text>
    </BulkAction>
  );
}
