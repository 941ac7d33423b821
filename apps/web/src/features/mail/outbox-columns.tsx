import { mailKindLabels, mailOutboxStatusLabels, type MailOutboxRow } from '@fleet/contract';
import type { ListColumn } from '../../components/list-shell/list-table';
import { SendStatus } from '../../components/send-status';
import { formatDateTime } from '../../lib/format';
import { mailTexts } from './texts';

const c = mailTexts.columns;

/** The columns of the outbox: what was sent to whom, its state (with the last error) and the next retry. */
export const outboxColumns: ListColumn<MailOutboxRow>[] = [
  { label: c.createdAt, render: (m) => formatDateTime(m.created_at) },
  { label: c.kind, render: (m) => mailKindLabels[m.kind] ?? m.kind },
  { label: c.to, render: (m) => m.to_addr },
  { label: c.subject, render: (m) => m.subject },
  {
    label: c.status,
    render: (m) => <SendStatus status={m.status} label={mailOutboxStatusLabels[m.status]} error={m.last_error} />,
  },
  { label: c.attempts, render: (m) => m.attempts },
  { label: c.sentOrNext, render: (m) => formatDateTime(m.sent_at ?? m.next_attempt_at) },
];
