import {
  commandSlots,
  commandStatusLabels,
  engineMessages,
  reservationStateLabels,
  reservedCommandTypeLabels,
} from '@fleet/contract';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { reserveCmdQuery, useDeleteCommand, useReserveCommand } from './api';
import { engineTexts as T } from './texts';

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
          {q.data?.command ? commandStatusLabels[q.data.command.status] : reservationStateLabels[0]}
        </Text>
      </div>
      {state === 1 ? (
        <ConfirmButton
          size="xs"
          color="red"
          variant="light"
          title={T.otherCommands.deleteTitle}
          message={T.otherCommands.deleteMessage(reservedCommandTypeLabels[type])}
          confirmLabel={T.otherCommands.deleteConfirm}
          failureMessage={engineMessages.deleteFailed}
          onConfirm={() => del.mutateAsync({ car_data_id: carDataId, cmd_idx: idx })}
        >
          {T.otherCommands.delete}
        </ConfirmButton>
      ) : state === 2 ? (
        <Badge variant="light">{reservationStateLabels[2]}</Badge>
      ) : (
        <ConfirmButton
          size="xs"
          variant="light"
          title={reservedCommandTypeLabels[type]}
          message={T.otherCommands.orderMessage(reservedCommandTypeLabels[type])}
          confirmLabel={T.otherCommands.order}
          failureMessage={engineMessages.reserveFailed}
          onConfirm={() => reserve.mutateAsync({ car_data_id: carDataId, cmd_type: type, cmd_info: {} })}
        >
          {T.otherCommands.order}
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
        {T.otherCommands.title}
      </Title>
      <Stack>
        {types.map((t) => (
          <Slot key={t} carDataId={carDataId} type={t} />
        ))}
      </Stack>
    </Card>
  );
}
