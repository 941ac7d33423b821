import { webhookEventLabels, type Webhook } from '@fleet/contract';
import { Alert, Badge, Button, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { ListTable, tableOf, type ListColumn } from '../../../components/list-shell/list-table';
import { messageOf } from '../../../lib/api-client';
import { useDeleteWebhook, useWebhooks } from '../api';
import { webhookTexts as t } from '../texts';
import { WebhookForm } from './webhook-form';

/** The caller's receivers with add, edit and delete. */
export function WebhookTable({ adding, onAdded }: { adding: boolean; onAdded(): void }) {
  const q = useWebhooks();
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<Webhook | null>(null);
  const confirmDelete = (w: Webhook) => {
    if (window.confirm(t.deleteConfirm(w.url))) remove.mutate(w.id);
  };
  const columns: ListColumn<Webhook>[] = [
    {
      label: t.url,
      render: (w) => (
        <>
          <Text size="sm" fw={600}>
            {w.url}
          </Text>
          {w.description && (
            <Text size="xs" c="dimmed">
              {w.description}
            </Text>
          )}
        </>
      ),
    },
    {
      label: t.events,
      render: (w) => (
        <Group gap={4}>
          {w.events.map((e) => (
            <Badge key={e} variant="light" size="sm">
              {webhookEventLabels[e]}
            </Badge>
          ))}
        </Group>
      ),
    },
    { label: t.scope, render: (w) => w.company_id ?? t.allCompanies },
    {
      label: t.enabled,
      render: (w) => (
        <Badge color={w.enabled ? 'teal' : 'gray'} variant="light">
          {w.enabled ? t.on : t.off}
        </Badge>
      ),
    },
    {
      label: '',
      render: (w) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setEditing(w)}>
            {t.edit}
          </Button>
          <Button size="xs" color="red" variant="light" onClick={() => confirmDelete(w)}>
            {t.delete}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" radius="md">
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {messageOf(remove.error)}
        </Alert>
      )}
      <ListTable columns={columns} rowKey={(w) => w.id} {...tableOf(q)} empty={t.empty} minWidth={800} wrap />
      {adding && <WebhookForm onClose={onAdded} />}
      {editing && <WebhookForm webhook={editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}
