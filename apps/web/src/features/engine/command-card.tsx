import {
  commandEventLabel,
  commandStatusLabels,
  COMMAND_EXPIRY_DEFAULT_MINUTES,
  engineCommandLabel,
  engineMessages,
  ENGINE_CMD_IDX,
  linkLabel,
  reservationStateLabels,
  terminalIdentityTexts,
  type CarDetail,
  type ReservedCommand,
} from '@fleet/contract';
import { Alert, Badge, Card, Group, Select, Skeleton, Stack, Stepper, Text, Timeline, Title } from '@mantine/core';
import { IconLockOpen, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { messageOf } from '../../lib/api-client';
import { usePhone } from '../../lib/use-phone';
import { formatDateTime } from '../../lib/format';
import { reserveCmdQuery, useDeleteCommand, useReserveEngine } from './api';
import { useEngineRight } from './api-authority';
import { ProhibitButton } from './prohibit-button';
import { engineTexts as T } from './texts';

const expiryOptions = [
  { value: '60', label: T.command.expiryOptions.hour1 },
  { value: '360', label: T.command.expiryOptions.hours6 },
  { value: String(COMMAND_EXPIRY_DEFAULT_MINUTES), label: T.command.expiryOptions.hours24 },
  { value: '4320', label: T.command.expiryOptions.days3 },
  { value: '10080', label: T.command.expiryOptions.days7 },
];
/** What the card needs of the vehicle. */
type EngineCar = Pick<CarDetail, 'car_number' | 'car_data_id'>;
const statusColor: Record<string, string> = {
  execWait: 'yellow',
  resultWait: 'blue',
  succeeded: 'teal',
  failed: 'red',
  deleted: 'gray',
  expired: 'orange',
  cancelled: 'dark',
};

/** Each state change with its time and account; the server's cancellation with its reason. */
function CommandTimeline({ command }: { command: ReservedCommand }) {
  return (
    <Timeline active={command.events.length - 1} bulletSize={14} lineWidth={2} mt="lg">
      {command.events.map((e, i) => (
        <Timeline.Item key={i} title={commandEventLabel(e.event)}>
          <Text size="xs" c="dimmed">
            {formatDateTime(e.at)}
            {e.account_name || e.account_id ? T.command.eventBy(String(e.account_name ?? e.account_id)) : ''}
          </Text>
          {e.reason && (
            <Text size="xs" c="red">
              {e.reason}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** Permit / prohibit now, with the command's expiry; prohibiting asks for the vehicle number (and the password). */
function CommandControls({ car }: { car: EngineCar }) {
  const reserve = useReserveEngine();
  const [expiry, setExpiry] = useState(String(COMMAND_EXPIRY_DEFAULT_MINUTES));
  const send = (cmd: 0 | 1) =>
    reserve.mutateAsync({ car_data_id: car.car_data_id!, cmd_info: { cmd, expires_in_minutes: Number(expiry) } });
  // On a phone the buttons are full width, one under the other, for one thumb.
  const phone = usePhone();
  const Row = phone ? Stack : Group;
  return (
    <Row align={phone ? 'stretch' : 'flex-end'} gap="sm">
      <Select
        label={T.command.expiry}
        data={expiryOptions}
        value={expiry}
        onChange={(v) => setExpiry(v ?? expiry)}
        allowDeselect={false}
        w={phone ? undefined : 120}
      />
      <ConfirmButton
        color="blue"
        size={phone ? 'md' : undefined}
        fullWidth={phone}
        leftSection={<IconLockOpen size={16} />}
        title={T.command.permitTitle}
        message={T.command.permitMessage(car.car_number)}
        confirmLabel={T.command.permitConfirm}
        failureMessage={engineMessages.reserveFailed}
        onConfirm={() => send(0)}
      >
        {T.command.permit}
      </ConfirmButton>
      <ProhibitButton
        size={phone ? 'md' : undefined}
        fullWidth={phone}
        carNumber={car.car_number}
        message={T.prohibitNow(car.car_number)}
        failureMessage={engineMessages.reserveFailed}
        onProhibit={() => send(1)}
      >
        {T.command.prohibit}
      </ProhibitButton>
    </Row>
  );
}

/**
 * The engine slot: permit / prohibit now, the command's progress 1 → 2 → 3, its
 * expiry and timeline. Without エンジン制御権限 the reason stands in place of the buttons.
 */
export function CommandCard({ car }: { car: EngineCar }) {
  const dataId = car.car_data_id!;
  const q = useQuery(reserveCmdQuery(dataId));
  const right = useEngineRight();
  const del = useDeleteCommand();
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, engineMessages.fetchFailed)}
      </Alert>
    );
  if (!q.data || right === undefined) return <Skeleton h={260} />;
  const { state, command } = q.data;
  const active = state === 1 || state === 2;

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h5">
          {T.command.title}
        </Title>
        {command && (
          <Badge color={statusColor[command.status]} size="lg" variant="light" data-testid="command-status">
            {commandStatusLabels[command.status]}
          </Badge>
        )}
      </Group>
      <Stepper active={active ? state - 1 : state === 3 ? 3 : -1} size="sm" mb="lg" allowNextStepsSelect={false}>
        <Stepper.Step label={reservationStateLabels[1]} description={T.command.execWaitHint} />
        <Stepper.Step label={reservationStateLabels[2]} description={T.command.resultWaitHint} />
        <Stepper.Step label={reservationStateLabels[3]} description={T.command.resultEndHint} />
      </Stepper>
      {command ? (
        <Stack gap={4} mb="md">
          <Text size="sm">
            <b>{engineCommandLabel(command.cmd_info.cmd)}</b>
            {T.command.orderedBy(
              command.created_by_name ?? command.created_by ?? '—',
              formatDateTime(command.created_at),
            )}
          </Text>
          {command.expires_at && (
            <Text size="sm" c={command.status === 'expired' ? 'orange' : 'dimmed'}>
              {T.command.expiresAt(formatDateTime(command.expires_at))}
              {command.status === 'execWait' ? T.command.expiresNote : ''}
            </Text>
          )}
          {command.result && (
            <Text size="sm" c={command.result.success ? 'teal' : 'red'}>
              {T.command.result(command.result.success)}
              {command.result.detail ? `（${command.result.detail}）` : ''}
            </Text>
          )}
          {command.cancel_reason && (
            <Text size="sm" c="red" data-testid="cancel-reason">
              {T.cancelReason}: {command.cancel_reason}
            </Text>
          )}
          {command.link_changed && command.sent_link && command.answer_link && (
            <Alert color="orange" role="alert" data-testid="link-changed">
              {terminalIdentityTexts.linkChangedWarning}
              <br />
              {terminalIdentityTexts.sentOn}: {linkLabel(command.sent_link, formatDateTime)}
              <br />
              {terminalIdentityTexts.answeredOn}: {linkLabel(command.answer_link, formatDateTime)}
            </Alert>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed" mb="md">
          {T.command.none}
        </Text>
      )}
      {active && (
        <Group>
          {state === 1 && right && (
            <ConfirmButton
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              title={T.command.deleteTitle}
              message={T.command.deleteMessage}
              confirmLabel={T.command.deleteConfirm}
              failureMessage={engineMessages.deleteFailed}
              onConfirm={() => del.mutateAsync({ car_data_id: dataId, cmd_idx: ENGINE_CMD_IDX })}
            >
              {T.command.delete}
            </ConfirmButton>
          )}
          <Text size="sm" c="dimmed">
            {state === 1 ? T.command.execWaitNote : T.command.resultWaitNote}
          </Text>
        </Group>
      )}
      {!active && right && <CommandControls car={car} />}
      {!right && (
        <Alert color="gray" mt={active ? 'md' : 0}>
          {engineMessages.noEngineRight}
        </Alert>
      )}
      {command && command.events.length > 0 && <CommandTimeline command={command} />}
    </Card>
  );
}
