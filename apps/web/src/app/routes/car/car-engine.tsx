import { Alert, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CarScreen } from '../../../features/car/car-header';
import { ConnectionBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { CommandCard } from '../../../features/engine/command-card';
import { HistoryCard } from '../../../features/engine/history-card';
import { OtherCommandsCard } from '../../../features/engine/other-commands-card';
import { RequestsCard } from '../../../features/engine/requests-card';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed } from '../../../lib/live-feed';
import { capabilities, type CarDetail } from '@fleet/contract';
import { actorOf, useSession } from '../../../lib/session-store';

function CurrentState({ car }: { car: CarDetail }) {
  const s = useLatestState(car.car_data_id, car.latest);
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">
        現在の状態
      </Title>
      <Group gap="xl">
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            エンジン始動
          </Text>
          <span data-testid="engine-line">
            <EngineLineBadge state={s} />
          </span>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            走行状態
          </Text>
          <RunningBadge state={s} />
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            通信
          </Text>
          <ConnectionBadge state={s} />
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            最終受信
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
    <CarScreen title="エンジン始動制御">
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
          <Alert color="yellow">この車両には端末が登録されていないため、エンジン始動制御は使用できません。</Alert>
        )
      }
    </CarScreen>
  );
}
