import { capabilities } from '@fleet/contract';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SelectionCard } from '../../components/selection-card';
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
  return (
    <SelectionCard
      texts={t.assign}
      options={all.data?.list.map((z) => ({ value: z.zone_id, label: z.name }))}
      current={assigned}
      chosenOf={(c) => c.zones.map((z) => z.zone_id)}
      update={save}
      save={({ ids }, done) => save.mutate({ car_id: carId, zone_ids: ids }, { onSuccess: done })}
      locked={!mayEdit}
    >
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
    </SelectionCard>
  );
}
