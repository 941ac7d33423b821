import {
  errorMessages,
  mailKindLabels,
  mailOutboxList,
  mailOutboxStatusLabels,
  type MailOutboxStatus,
} from '@fleet/contract';
import { Alert, Badge, Paper, ScrollArea, SegmentedControl, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPagination } from '../../components/list-shell/list-pagination';
import { PageHeader } from '../../components/page-header';
import { callApi, messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

const PAGE = 20;
const statusColor = { pending: 'yellow', sent: 'teal', failed: 'red' } as const;

/** The mail outbox (super admin): what was sent, what waits for a retry and why. */
export function Component() {
  const [status, setStatus] = useState<MailOutboxStatus>('all');
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['mail-outbox', status, page],
    queryFn: ({ signal }) => callApi(mailOutboxList, { status, offset: page * PAGE, limit: PAGE }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <>
      <PageHeader
        title="送信メール一覧"
        description="通知・パスワード再設定のメール。SMTP未設定または送信失敗のメールは送信待ちとして再送されます。"
      />
      <Paper withBorder p="md" radius="md">
        <SegmentedControl
          mb="md"
          value={status}
          onChange={(v) => {
            setStatus(v as MailOutboxStatus);
            setPage(0);
          }}
          data={[
            { value: 'all', label: 'すべて' },
            ...Object.entries(mailOutboxStatusLabels).map(([value, label]) => ({ value, label })),
          ]}
        />
        {q.isError ? (
          <Alert color="red" role="alert">
            {messageOf(q.error, errorMessages.fetchFailed)}
          </Alert>
        ) : (
          <ScrollArea type="auto">
            <Table striped miw={900} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>作成日時</Table.Th>
                  <Table.Th>種別</Table.Th>
                  <Table.Th>宛先</Table.Th>
                  <Table.Th>件名</Table.Th>
                  <Table.Th>状態</Table.Th>
                  <Table.Th>送信回数</Table.Th>
                  <Table.Th>送信日時 / 次回再送</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.data?.list.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
                    <Table.Td>{mailKindLabels[m.kind] ?? m.kind}</Table.Td>
                    <Table.Td>{m.to_addr}</Table.Td>
                    <Table.Td>{m.subject}</Table.Td>
                    <Table.Td>
                      <Badge color={statusColor[m.status]} variant="light">
                        {mailOutboxStatusLabels[m.status]}
                      </Badge>
                      {m.last_error && (
                        <Text size="xs" c="red" lineClamp={2}>
                          {m.last_error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{m.attempts}</Table.Td>
                    <Table.Td>{m.sent_at ? formatDateTime(m.sent_at) : formatDateTime(m.next_attempt_at)}</Table.Td>
                  </Table.Tr>
                ))}
                {q.data?.list.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <Text ta="center" c="dimmed" py="xl">
                        メールはありません。
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
