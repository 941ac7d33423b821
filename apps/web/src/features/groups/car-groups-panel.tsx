import { capabilities, errorMessages } from '@fleet/contract';
import { Badge, Group, Text } from '@mantine/core';
import { SelectionCard } from '../../components/selection-card';
import { messageOf } from '../../lib/api-client';
import { actorOf, useSession } from '../../lib/session-store';
import { useCarGroups, useGroupList, useSetCarGroups } from './api';
import { groupTexts } from './texts';

const t = groupTexts.car;

/** A vehicle's groups on its detail screen: shown to everyone, changed by managers and administrators. */
export function CarGroupsPanel({
  carId,
  companyId,
  readOnly,
}: {
  carId: string;
  companyId: string | null;
  readOnly?: boolean;
}) {
  const actor = actorOf(useSession());
  const mayEdit = !!actor && capabilities(actor).editCarsAndCustomers && !readOnly;
  const assigned = useCarGroups(carId);
  const all = useGroupList(companyId, mayEdit && !!companyId);
  const save = useSetCarGroups();
  const groups = assigned.data?.groups ?? [];
  const view = (
    <Group gap={6}>
      {groups.length ? (
        groups.map((g) => (
          <Badge key={g.group_id} variant="light" tt="none">
            {g.name}
          </Badge>
        ))
      ) : (
        <Text size="sm" c="dimmed">
          {assigned.isError ? messageOf(assigned.error, errorMessages.fetchFailed) : t.none}
        </Text>
      )}
    </Group>
  );
  return (
    <SelectionCard
      texts={{
        title: t.title,
        label: t.label,
        none: t.none,
        save: t.save,
        saved: t.saved,
        nothingFound: groupTexts.emptyFiltered,
      }}
      options={all.data?.list.map((g) => ({ value: g.group_id, label: g.name }))}
      current={assigned}
      chosenOf={(c) => c.groups.map((g) => g.group_id)}
      update={save}
      save={({ ids }, done) => save.mutate({ car_id: carId, group_ids: ids }, { onSuccess: done })}
      view={mayEdit ? undefined : view}
    />
  );
}
