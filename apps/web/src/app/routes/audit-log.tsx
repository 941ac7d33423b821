import {
  auditActionLabels,
  auditLogList,
  auditTargetLabels,
  auditTargetTypes,
  errorMessages,
  type AuditTargetType,
} from '@fleet/contract';
import { Alert, Code, Group, Paper, ScrollArea, Select, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPagination } from '../../components/list-shell/list-pagination';
import { PageHeader } from '../../components/page-header';
import { callApi, messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

const PAGE = 20;

/** The audit log (super admin): who changed accounts, companies, vehicles, areas and engine commands. */
export function Component() {
  const [type, setType] = useState<AuditTargetType | null>(null);
  const [target, setTarget] = useState('');
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['audit-log', type, target, page],
    queryFn: ({ signal }) =>
      callApi(
        auditLogList,
        {
          ...(type ? { target_type: type } : {}),
          ...(target.trim() ? { target_id: target.trim() } : {}),
          offset: page * PAGE,
          limit: PAGE,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="操作履歴"
        description="アカウント・加盟店・車両・エリア・エンジン制御の変更を、誰がいつ行ったかを表示します。"
      />
      <Paper withBorder p="md" radius="md">
        <Group mb="md" align="flex-end">
          <Select
            label="対象"
            placeholder="すべて"
            clearable
            data={auditTargetTypes.map((t) => ({ value: t, label: auditTargetLabels[t] }))}
            value={type}
            onChange={(v) => {
              setType(v as AuditTargetType | null);
              setPage(0);
            }}
            w={220}
          />
          <TextInput
            label="対象ID"
            value={target}
            onChange={(e) => {
              setTarget(e.currentTarget.value);
              setPage(0);
            }}
            w={220}
          />
        </Group>
        {q.isError ? (
          <Alert color="red" role="alert">
            {messageOf(q.error, errorMessages.fetchFailed)}
          </Alert>
        ) : (
          <ScrollArea type="auto">
            <Table striped fz="sm" miw={900}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>日時</Table.Th>
                  <Table.Th>操作者</Table.Th>
                  <Table.Th>操作</Table.Th>
                  <Table.Th>対象</Table.Th>
                  <Table.Th>内容</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data?.list.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.at)}</Table.Td>
                    <Table.Td>{r.account_name ?? r.account_id ?? '—'}</Table.Td>
                    <Table.Td>{auditActionLabels[r.action] ?? r.action}</Table.Td>
                    <Table.Td>
                      {auditTargetLabels[r.target_type as AuditTargetType] ?? r.target_type} {r.target_id}
                    </Table.Td>
                    <Table.Td>
                      <Code>{Object.keys(r.detail).length ? JSON.stringify(r.detail) : ''}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
                {q.data?.list.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text ta="center" c="dimmed" py="xl">
                        操作履歴はありません。
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
    </>
  );
}
