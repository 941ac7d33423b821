import { commandSlots, commandStatusLabels, engineMessages, reservedCommandTypeLabels } from '@fleet/contract';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { reserveCmdQuery, useDeleteCommand, useReserveCommand } from './api';

const types = ['req_client_update', 'req_car_setting_update'] as const;

function Slot({ carDataId, type }: { carDataId: string; type: (typeof types)[number] }) {
  const idx = commandSlots[type];
  const q = useQuery(reserveCmdQuery(carDataId, idx));
  const reserve = useReserveCommand();
  const del = useDeleteCommand();
  const state = q.data?.state ?? 0;
  return (
    <Group justify="space-between">
      <div>
        <Text size="sm" fw={600}>
          {reservedCommandTypeLabels[type]}
        </Text>
        <Text size="xs" c="dimmed">
          {q.data?.command ? commandStatusLabels[q.data.command.status] : '予約なし'}
        </Text>
      </div>
      {state === 1 ? (
        <ConfirmButton
          size="xs"
          color="red"
          variant="light"
          title="予約コマンドの削除"
          message={`${reservedCommandTypeLabels[type]}の予約を削除します。`}
          confirmLabel="削除する"
          failureMessage={engineMessages.deleteFailed}
          onConfirm={() => del.mutateAsync({ car_data_id: carDataId, cmd_idx: idx })}
        >
          予約を削除
        </ConfirmButton>
      ) : state === 2 ? (
        <Badge variant="light">結果待ち</Badge>
      ) : (
        <ConfirmButton
          size="xs"
          variant="light"
          title={reservedCommandTypeLabels[type]}
          message={`${reservedCommandTypeLabels[type]}を端末に指示します。よろしいですか？`}
          confirmLabel="指示する"
          failureMessage={engineMessages.reserveFailed}
          onConfirm={() => reserve.mutateAsync({ car_data_id: carDataId, cmd_type: type, cmd_info: {} })}
        >
          指示する
        </ConfirmButton>
      )}
    </Group>
  );
}

/** The other reserved command types (the super admin's only); they go through the same lifecycle as the engine command. */
export function OtherCommandsCard({ carDataId }: { carDataId: string }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">
        その他の端末コマンド
      </Title>
      <Stack>
        {types.map((t) => (
          <Slot key={t} carDataId={carDataId} type={t} />
        ))}
      </Stack>
    </Card>
  );
}
