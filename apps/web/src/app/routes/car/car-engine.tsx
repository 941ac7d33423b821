import { Alert, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CarScreen } from '../../../features/car/car-header';
import { ConnectionBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { CommandCard } from '../../../features/engine/command-card';
import { HistoryCard } from '../../../features/engine/history-card';
import { OtherCommandsCard } from '../../../features/engine/other-commands-card';
import { RequestsCard } from '../../../features/engine/requests-card';
import { engineTexts } from '../../../features/engine/texts';
import { carTexts } from '../../../features/car/texts';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed } from '../../../lib/live-feed';
import { capabilities, type CarDetail } from '@fleet/contract';
import { actorOf, useSession } from '../../../lib/session-store';

function CurrentState({ car }: { car: CarDetail }) {
  const s = useLatestState(car.car_data_id, car.latest);
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">
        {carTexts.detail.now}
      </Title>
      <Group gap="xl">
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {carTexts.detail.engine}
          </Text>
          <span data-testid="engine-line">
            <EngineLineBadge state={s} />
          </span>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {carTexts.detail.running}
          </Text>
          <RunningBadge state={s} />
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {carTexts.detail.connection}
          </Text>
          <ConnectionBadge state={s} />
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {carTexts.detail.lastSeen}
          </Text>
          <Text size="sm">{formatDateTime(s?.last_seen_at) || '—'}</Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** `/car/car_engine/{car_id?}/{car_data_id?}`: permit or prohibit engine start, now or by reservation. */
export function Component() {
  useLiveFeed();
  const actor = actorOf(useSession());
  const superAdmin = !!actor && capabilities(actor).superAdmin;
  return (
    <CarScreen title={engineTexts.screen.title}>
      {(car) =>
        car.car_data_id ? (
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <Stack gap="md">
              <CurrentState car={car} />
              <CommandCard car={car} />
              {superAdmin && <OtherCommandsCard carDataId={car.car_data_id} />}
            </Stack>
            <Stack gap="md">
              <RequestsCard carId={car.car_id} carNumber={car.car_number} />
              <HistoryCard carDataId={car.car_data_id} />
            </Stack>
          </SimpleGrid>
        ) : (
          <Alert color="yellow">{engineTexts.screen.noTerminal}</Alert>
        )
      }
    </CarScreen>
  );
}
