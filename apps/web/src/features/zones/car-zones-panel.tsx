import { capabilities, errorMessages } from '@fleet/contract';
import { Badge, Button, Card, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { actorOf, useSession } from '../../lib/session-store';
import { carZonesQuery, useAssignZones, zoneListQuery } from './api';
import { zoneTexts as t } from './texts';

/** Which of the company's zones a vehicle is judged against: its own (changed here) and its groups' (shown). */
export function CarZonesPanel({ carId }: { carId: string }) {
  const actor = actorOf(useSession());
  const mayEdit = !!actor && capabilities(actor).editCarsAndCustomers;
  const assigned = useQuery(carZonesQuery(carId));
  const all = useQuery(zoneListQuery());
  const save = useAssignZones();
  const [chosen, setChosen] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (assigned.data) setChosen(assigned.data.zones.map((z) => z.zone_id));
  }, [assigned.data]);
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h5" mb="xs">
        {t.assign.title}
      </Title>
      <Stack gap="xs">
        <MultiSelect
          label={t.assign.label}
          placeholder={t.assign.placeholder}
          data={(all.data?.list ?? []).map((z) => ({ value: z.zone_id, label: z.name }))}
          value={chosen}
          onChange={(v) => {
            setChosen(v);
            setSaved(false);
          }}
          disabled={!mayEdit}
          searchable
          clearable
        />
        {mayEdit && (
          <Group>
            <Button
              size="xs"
              loading={save.isPending}
              onClick={() => save.mutate({ car_id: carId, zone_ids: chosen }, { onSuccess: () => setSaved(true) })}
            >
              {t.assign.save}
            </Button>
            {saved && (
              <Text size="xs" c="teal.8" role="status">
                {t.assign.saved}
              </Text>
            )}
          </Group>
        )}
        {!!assigned.data?.group_zones.length && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t.assign.throughGroups}
            </Text>
            <Group gap={6}>
              {assigned.data.group_zones.map((z) => (
                <Badge key={`${z.zone_id}-${z.group_id}`} variant="light" color="gray" tt="none">
                  {t.assign.viaGroup(z.name, z.group_name)}
                </Badge>
              ))}
            </Group>
            <Text size="xs" c="dimmed">
              {t.assign.throughGroupsHelp}
            </Text>
          </Stack>
        )}
        {save.isError && (
          <Text size="xs" c="red" role="alert">
            {messageOf(save.error, errorMessages.updateFailed)}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
