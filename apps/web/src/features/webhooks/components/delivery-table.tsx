import {
  webhookDeliveryStatusLabels,
  webhookEventLabels,
  type WebhookDeliveryRow,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@fleet/contract';
import { Paper } from '@mantine/core';
import { useState } from 'react';
import { ListTable, type ListColumn } from '../../../components/list-shell/list-table';
import { StatusFilter } from '../../../components/list-shell/status-filter';
import { usePaging } from '../../../components/list-shell/use-paging';
import { SendStatus } from '../../../components/send-status';
import { formatDateTime } from '../../../lib/format';
import { useWebhookDeliveries } from '../api';
import { webhookTexts as t } from '../texts';

const c = t.columns;
const columns: ListColumn<WebhookDeliveryRow>[] = [
  { label: c.createdAt, render: (d) => formatDateTime(d.created_at) },
  { label: c.event, render: (d) => webhookEventLabels[d.event_type as WebhookEventType] ?? d.event_type },
  { label: c.url, render: (d) => d.url },
  {
    label: c.status,
    render: (d) => <SendStatus status={d.status} label={webhookDeliveryStatusLabels[d.status]} error={d.last_error} />,
  },
  { label: c.attempts, render: (d) => d.attempts },
  { label: c.answer, render: (d) => d.last_status ?? '-' },
  { label: c.sentOrNext, render: (d) => formatDateTime(d.sent_at ?? d.next_attempt_at) },
];

/** The delivery log of the caller's receivers, newest first. */
export function DeliveryTable() {
  const [status, setStatus] = useState<WebhookDeliveryStatus>('all');
  const page = usePaging();
  const q = useWebhookDeliveries({ status, ...page.request });
  return (
    <Paper withBorder p="md" radius="md">
      <StatusFilter
        value={status}
        labels={webhookDeliveryStatusLabels}
        allLabel={t.all}
        onChange={(v) => {
          setStatus(v);
          page.reset();
        }}
      />
      <ListTable
        columns={columns}
        rowKey={(d) => d.id}
        empty={t.emptyDeliveries}
        minWidth={900}
        wrap
        {...page.table(q)}
      />
    </Paper>
  );
}
