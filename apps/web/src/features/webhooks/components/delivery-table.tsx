import {
  webhookDeliveryStatusLabels,
  webhookEventLabels,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@fleet/contract';
import { Alert, Badge, Paper, ScrollArea, SegmentedControl, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ListPagination } from '../../../components/list-shell/list-pagination';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useWebhookDeliveries } from '../api';
import { webhookTexts as t } from '../texts';

const PAGE = 20;
const statusColor = { pending: 'yellow', sent: 'teal', failed: 'red' } as const;

/** The delivery log of the caller's receivers, newest first. */
export function DeliveryTable() {
  const [status, setStatus] = useState<WebhookDeliveryStatus>('all');
  const [page, setPage] = useState(0);
  const q = useWebhookDeliveries({ status, offset: page * PAGE, limit: PAGE });
  const c = t.columns;
  return (
    <Paper withBorder p="md" radius="md">
      <SegmentedControl
        mb="md"
        value={status}
        onChange={(v) => {
          setStatus(v as WebhookDeliveryStatus);
          setPage(0);
        }}
        data={[
          { value: 'all', label: t.all },
          ...Object.entries(webhookDeliveryStatusLabels).map(([value, label]) => ({ value, label })),
        ]}
      />
      {q.isError ? (
        <Alert color="red" role="alert">
          {messageOf(q.error)}
        </Alert>
      ) : (
        <ScrollArea type="auto">
          <Table striped miw={900} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{c.createdAt}</Table.Th>
                <Table.Th>{c.event}</Table.Th>
                <Table.Th>{c.url}</Table.Th>
                <Table.Th>{c.status}</Table.Th>
                <Table.Th>{c.attempts}</Table.Th>
                <Table.Th>{c.answer}</Table.Th>
                <Table.Th>{c.sentOrNext}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data?.list.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatDateTime(d.created_at)}</Table.Td>
                  <Table.Td>{webhookEventLabels[d.event_type as WebhookEventType] ?? d.event_type}</Table.Td>
                  <Table.Td>{d.url}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[d.status]} variant="light">
                      {webhookDeliveryStatusLabels[d.status]}
                    </Badge>
                    {d.last_error && (
                      <Text size="xs" c="red" lineClamp={2}>
                        {d.last_error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.last_status ?? '-'}</Table.Td>
                  <Table.Td>{d.sent_at ? formatDateTime(d.sent_at) : formatDateTime(d.next_attempt_at)}</Table.Td>
                </Table.Tr>
              ))}
              {q.data?.list.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={7}>
                    <Text ta="center" c="dimmed" py="xl">
                      {t.emptyDeliveries}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <ListPagination page={page} total={q.data?.count ?? 0} size={PAGE} pageRange={20} onChange={setPage} />
    </Paper>
  );
}
