import { pushMessages } from '@fleet/contract';
import { Alert, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { ApiClientError } from '../../lib/api-client';
import { useBrowserPush, type PushState } from './api';
import { notifyTexts } from './texts';

const T = notifyTexts.push;

const badges: Record<PushState, { color: string; label: string }> = {
  checking: { color: 'gray', label: T.states.checking },
  unsupported: { color: 'gray', label: T.states.unsupported },
  denied: { color: 'red', label: T.states.denied },
  subscribed: { color: 'green', label: T.states.subscribed },
  unsubscribed: { color: 'gray', label: T.states.unsubscribed },
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
    <Card withBorder radius="md" padding="md" mb="md" aria-label={T.label}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Text fw={700} size="sm">
              {T.title}
            </Text>
            <Badge color={badges[state].color} variant="light" data-testid="push-state">
              {badges[state].label}
            </Badge>
          </Group>
          {state === 'subscribed' ? (
            <Button variant="default" leftSection={<IconBellOff size={16} />} loading={busy} onClick={unsubscribe}>
              {T.unsubscribe}
            </Button>
          ) : (
            <Button
              leftSection={<IconBell size={16} />}
              loading={busy}
              disabled={state !== 'unsubscribed'}
              onClick={subscribe}
            >
              {T.title}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {explanation[state]}
          {state !== 'unsupported' && state !== 'checking' && T.note}
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
