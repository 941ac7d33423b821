import { webhookEventLabels, webhookEventTypes, type Webhook, type WebhookEventType } from '@fleet/contract';
import { Alert, Button, Checkbox, Code, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiClientError, messageOf } from '../../../lib/api-client';
import { useAddWebhook, useUpdateWebhook } from '../api';
import { webhookTexts as t } from '../texts';

interface Props {
  /** The receiver to edit; undefined: a new one. */
  webhook?: Webhook;
  onClose(): void;
}

/** Add or edit one receiver in a dialog; a new secret is shown once after saving. */
export function WebhookForm({ webhook, onClose }: Props) {
  const add = useAddWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.events ?? []);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const error = add.error ?? update.error;
  const fieldErrors = error instanceof ApiClientError ? error.errors : {};
  const fieldError = (name: string) =>
    fieldErrors[name] ?? Object.entries(fieldErrors).find(([k]) => k.startsWith(`${name}.`))?.[1];

  const save = async () => {
    const body = { url, secret, events, enabled, description };
    if (webhook) {
      await update.mutateAsync({ id: webhook.id, ...body });
      onClose();
    } else {
      setShownSecret((await add.mutateAsync(body)).secret);
    }
  };

  if (shownSecret !== null) {
    return (
      <Modal opened onClose={onClose} title={t.add} size="lg">
        <Stack>
          <Alert color="green" role="status">
            {t.saved}
          </Alert>
          <Text size="sm" fw={700}>
            {t.secretShown}
          </Text>
          <Code block data-testid="webhook-secret">
            {shownSecret}
          </Code>
          <Group justify="flex-end">
            <Button onClick={onClose}>OK</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened onClose={onClose} title={webhook ? t.edit : t.add} size="lg">
      <Stack>
        {error && !Object.keys(fieldErrors).length && (
          <Alert color="red" role="alert">
            {messageOf(error)}
          </Alert>
        )}
        <TextInput
          label={t.url}
          placeholder="https://example.jp/fleet-webhook"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={fieldError('url')}
          required
        />
        <TextInput
          label={t.secret}
          description={webhook ? t.secretEditHint : t.secretAddHint}
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          error={fieldError('secret')}
        />
        <Checkbox.Group
          label={t.events}
          value={events}
          onChange={(v) => setEvents(v as WebhookEventType[])}
          error={fieldError('events')}
          withAsterisk
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {webhookEventTypes.map((e) => (
              <Checkbox key={e} value={e} label={webhookEventLabels[e]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <TextInput
          label={t.description}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldError('description')}
        />
        <Switch label={t.enabled} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={() => void save().catch(() => undefined)} loading={add.isPending || update.isPending}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
