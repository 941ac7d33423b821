import { capabilities, errorMessages } from '@fleet/contract';
import { Badge, Button, Card, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
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
  const [chosen, setChosen] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (assigned.data) setChosen(assigned.data.groups.map((g) => g.group_id));
  }, [assigned.data]);
  const groups = assigned.data?.groups ?? [];
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h5" mb="xs">
        {t.title}
      </Title>
      {!mayEdit ? (
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
      ) : (
        <Stack gap="xs">
          <MultiSelect
            label={t.label}
            placeholder={chosen.length ? undefined : t.none}
            data={(all.data?.list ?? []).map((g) => ({ value: g.group_id, label: g.name }))}
            value={chosen}
            onChange={(v) => {
              setChosen(v);
              setSaved(false);
            }}
            searchable
            clearable
            nothingFoundMessage={groupTexts.emptyFiltered}
          />
          <Group>
            <Button
              size="xs"
              loading={save.isPending}
              onClick={() => save.mutate({ car_id: carId, group_ids: chosen }, { onSuccess: () => setSaved(true) })}
            >
              {t.save}
            </Button>
            {saved && (
              <Text size="xs" c="teal.8" role="status">
                {t.saved}
              </Text>
            )}
          </Group>
          {save.isError && (
            <Text size="xs" c="red" role="alert">
              {messageOf(save.error, errorMessages.updateFailed)}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
