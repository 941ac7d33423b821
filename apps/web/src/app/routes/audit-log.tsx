import { auditTargetLabels, auditTargetTypes, type AuditTargetType } from '@fleet/contract';
import { Group, Paper, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ListTable } from '../../components/list-shell/list-table';
import { usePaging } from '../../components/list-shell/use-paging';
import { PageHeader } from '../../components/page-header';
import { useAuditLog } from '../../features/audit/api';
import { auditColumns } from '../../features/audit/audit-columns';
import { auditTexts as t } from '../../features/audit/texts';

/** The audit log (super admin): who changed accounts, companies, vehicles, areas and engine commands. */
export function Component() {
  const [type, setType] = useState<AuditTargetType | null>(null);
  const [target, setTarget] = useState('');
  const page = usePaging();
  const q = useAuditLog({
    ...(type ? { target_type: type } : {}),
    ...(target.trim() ? { target_id: target.trim() } : {}),
    ...page.request,
  });
  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      <Paper withBorder p="md" radius="md">
        <Group mb="md" align="flex-end">
          <Select
            label={t.target}
            placeholder={t.all}
            clearable
            data={auditTargetTypes.map((v) => ({ value: v, label: auditTargetLabels[v] }))}
            value={type}
            onChange={(v) => {
              setType(v as AuditTargetType | null);
              page.reset();
            }}
            w={220}
          />
          <TextInput
            label={t.targetId}
            value={target}
            onChange={(e) => {
              setTarget(e.currentTarget.value);
              page.reset();
            }}
            w={220}
          />
        </Group>
        <ListTable columns={auditColumns} rowKey={(r) => r.id} empty={t.empty} minWidth={900} wrap {...page.table(q)} />
      </Paper>
    </>
  );
}
