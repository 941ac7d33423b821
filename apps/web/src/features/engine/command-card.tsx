import {
  commandEventLabel,
  commandStatusLabels,
  COMMAND_EXPIRY_DEFAULT_MINUTES,
  engineCommandLabel,
  engineMessages,
  ENGINE_CMD_IDX,
  type CarDetail,
  type ReservedCommand,
} from '@fleet/contract';
import { Alert, Badge, Card, Group, Select, Skeleton, Stack, Stepper, Text, Timeline, Title } from '@mantine/core';
import { IconLockOpen, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { reserveCmdQuery, useDeleteCommand, useReserveEngine } from './api';
import { useEngineRight } from './api-authority';
import { ProhibitButton } from './prohibit-button';
import { engineTexts as T } from './texts';

const expiryOptions = [
  { value: '60', label: '1時間' },
  { value: '360', label: '6時間' },
  { value: String(COMMAND_EXPIRY_DEFAULT_MINUTES), label: '24時間' },
  { value: '4320', label: '3日' },
  { value: '10080', label: '7日' },
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
            {e.account_name || e.account_id ? `・${e.account_name ?? e.account_id}` : ''}
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
  return (
    <Group align="flex-end">
      <Select
        label="有効期限"
        data={expiryOptions}
        value={expiry}
        onChange={(v) => setExpiry(v ?? expiry)}
        allowDeselect={false}
        w={120}
      />
      <ConfirmButton
        color="blue"
        leftSection={<IconLockOpen size={16} />}
        title="エンジン始動許可"
        message={`${car.car_number} のエンジン始動を許可します。よろしいですか？`}
        confirmLabel="許可する"
        failureMessage={engineMessages.reserveFailed}
        onConfirm={() => send(0)}
      >
        エンジン始動を許可
      </ConfirmButton>
      <ProhibitButton
        carNumber={car.car_number}
        message={T.prohibitNow(car.car_number)}
        failureMessage={engineMessages.reserveFailed}
        onProhibit={() => send(1)}
      >
        エンジン始動を禁止
      </ProhibitButton>
    </Group>
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
          エンジン始動制御
        </Title>
        {command && (
          <Badge color={statusColor[command.status]} size="lg" variant="light" data-testid="command-status">
            {commandStatusLabels[command.status]}
          </Badge>
        )}
      </Group>
      <Stepper active={active ? state - 1 : state === 3 ? 3 : -1} size="sm" mb="lg" allowNextStepsSelect={false}>
        <Stepper.Step label="実行待ち" description="端末の受信待ち" />
        <Stepper.Step label="結果待ち" description="端末が受信" />
        <Stepper.Step label="実行完了" description="結果を受信" />
      </Stepper>
      {command ? (
        <Stack gap={4} mb="md">
          <Text size="sm">
            <b>{engineCommandLabel(command.cmd_info.cmd)}</b>（指示:{' '}
            {command.created_by_name ?? command.created_by ?? '—'}・{formatDateTime(command.created_at)}）
          </Text>
          {command.expires_at && (
            <Text size="sm" c={command.status === 'expired' ? 'orange' : 'dimmed'}>
              有効期限: {formatDateTime(command.expires_at)}
              {command.status === 'execWait' ? '（期限までに端末が受信しない場合は実行されません）' : ''}
            </Text>
          )}
          {command.result && (
            <Text size="sm" c={command.result.success ? 'teal' : 'red'}>
              端末の結果: {command.result.success ? '成功' : '失敗'}
              {command.result.detail ? `（${command.result.detail}）` : ''}
            </Text>
          )}
          {command.cancel_reason && (
            <Text size="sm" c="red" data-testid="cancel-reason">
              {T.cancelReason}: {command.cancel_reason}
            </Text>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed" mb="md">
          予約中のコマンドはありません。
        </Text>
      )}
      {active && (
        <Group>
          {state === 1 && right && (
            <ConfirmButton
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              title="予約コマンドの削除"
              message="実行待ちのコマンドを削除します。よろしいですか？"
              confirmLabel="削除する"
              failureMessage={engineMessages.deleteFailed}
              onConfirm={() => del.mutateAsync({ car_data_id: dataId, cmd_idx: ENGINE_CMD_IDX })}
            >
              予約を削除
            </ConfirmButton>
          )}
          <Text size="sm" c="dimmed">
            {state === 1
              ? '端末が次に通信したときにコマンドを受信します。'
              : '端末がコマンドを受信しました。結果を待っています。'}
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
