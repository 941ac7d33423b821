import { pushMessages } from '@fleet/contract';
import { Alert, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { ApiClientError } from '../../lib/api-client';
import { useBrowserPush, type PushState } from './api';

const badges: Record<PushState, { color: string; label: string }> = {
  checking: { color: 'gray', label: '確認中' },
  unsupported: { color: 'gray', label: '利用不可' },
  denied: { color: 'red', label: 'ブロック中' },
  subscribed: { color: 'green', label: '受信中' },
  unsubscribed: { color: 'gray', label: '未登録' },
};

const explanation: Record<PushState, string> = {
  checking: '',
  unsupported: pushMessages.unsupported,
  denied: pushMessages.denied,
  subscribed: pushMessages.subscribed,
  unsubscribed: pushMessages.notSubscribed,
};

/** 「このブラウザで通知を受け取る」: subscribes this browser to push, or shows why it cannot. */
export function PushControl() {
  const { state, busy, error, subscribe, unsubscribe } = useBrowserPush();
  const failure =
    error instanceof ApiClientError
      ? error.message
      : error
        ? state === 'denied'
          ? pushMessages.denied
          : state === 'subscribed'
            ? pushMessages.unsubscribeFailed
            : pushMessages.subscribeFailed
        : null;
  return (
    <Card withBorder radius="md" padding="md" mb="md" aria-label="ブラウザ通知">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Text fw={700} size="sm">
              このブラウザで通知を受け取る
            </Text>
            <Badge color={badges[state].color} variant="light" data-testid="push-state">
              {badges[state].label}
            </Badge>
          </Group>
          {state === 'subscribed' ? (
            <Button variant="default" leftSection={<IconBellOff size={16} />} loading={busy} onClick={unsubscribe}>
              受信を停止する
            </Button>
          ) : (
            <Button
              leftSection={<IconBell size={16} />}
              loading={busy}
              disabled={state !== 'unsubscribed'}
              onClick={subscribe}
            >
              このブラウザで通知を受け取る
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {explanation[state]}
          {state !== 'unsupported' &&
            state !== 'checking' &&
            '（「プッシュ」を選んだ項目を、このブラウザに通知します。通知をクリックすると車両の詳細を開きます）'}
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
