import { auditActionLabels, auditTargetLabels, type AuditLogRow, type AuditTargetType } from '@fleet/contract';
import { Text } from '@mantine/core';
import type { ListColumn } from '../../components/list-shell/list-table';
import { NoWrap } from '../../components/list-shell/no-wrap';
import { formatDateTime } from '../../lib/format';
import { detailText } from './detail-text';
import { auditTexts } from './texts';

const c = auditTexts.columns;

/** The columns of the audit log: when, who, what, on which record, and the change itself. */
export const auditColumns: ListColumn<AuditLogRow>[] = [
  { label: c.at, render: (r) => <NoWrap>{formatDateTime(r.at)}</NoWrap> },
  { label: c.actor, render: (r) => r.account_name ?? r.account_id ?? '—' },
  { label: c.action, render: (r) => auditActionLabels[r.action] ?? r.action },
  {
    label: c.target,
    render: (r) => `${auditTargetLabels[r.target_type as AuditTargetType] ?? r.target_type} ${r.target_id}`,
  },
  {
    label: c.detail,
    render: (r) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {detailText(r.detail)}
      </Text>
    ),
  },
];
