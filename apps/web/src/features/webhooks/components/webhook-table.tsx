import { webhookEventLabels, type Webhook } from '@fleet/contract';
import { Alert, Badge, Button, Group, Paper, ScrollArea, Table, Text } from '@mantine/core';
import { useState } from 'react';
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
  return (
    <Paper withBorder p="md" radius="md">
      {(q.isError || remove.isError) && (
        <Alert color="red" role="alert" mb="md">
          {messageOf(q.error ?? remove.error)}
        </Alert>
      )}
      <ScrollArea type="auto">
        <Table striped miw={800} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.url}</Table.Th>
              <Table.Th>{t.events}</Table.Th>
              <Table.Th>{t.scope}</Table.Th>
              <Table.Th>{t.enabled}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data?.list.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {w.url}
                  </Text>
                  {w.description && (
                    <Text size="xs" c="dimmed">
                      {w.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {w.events.map((e) => (
                      <Badge key={e} variant="light" size="sm">
                        {webhookEventLabels[e]}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{w.company_id ?? t.allCompanies}</Table.Td>
                <Table.Td>
                  <Badge color={w.enabled ? 'teal' : 'gray'} variant="light">
                    {w.enabled ? t.on : t.off}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(w)}>
                      {t.edit}
                    </Button>
                    <Button size="xs" color="red" variant="light" onClick={() => confirmDelete(w)}>
                      {t.delete}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
            {q.data?.list.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text ta="center" c="dimmed" py="xl">
                    {t.empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {adding && <WebhookForm onClose={onAdded} />}
      {editing && <WebhookForm webhook={editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}
