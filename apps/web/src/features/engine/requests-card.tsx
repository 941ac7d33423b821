import { engineCommandLabel, engineMessages, requestStatusLabels, commandStatusLabels, type ReservationRequest } from '@fleet/contract';
import { Alert, Button, Card, Group, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { requestsQuery, useCreateRequest, useDeleteRequest } from './api';

function Rows({ list, onDelete }: { list: ReservationRequest[]; onDelete?: (id: string) => Promise<unknown> }) {
  return (
    <>
      {list.map((r) => (
        <Table.Tr key={r.request_id}>
          <Table.Td>{formatDateTime(r.execute_at)}</Table.Td>
          <Table.Td>{engineCommandLabel(r.cmd)}</Table.Td>
          <Table.Td>
            {requestStatusLabels[r.status]}
            {r.command_status && `（${commandStatusLabels[r.command_status]}）`}
            {r.reason && <Text size="xs" c="red">{r.reason}</Text>}
          </Table.Td>
          <Table.Td>{r.created_by_name ?? r.created_by ?? '—'}</Table.Td>
          <Table.Td>
            {onDelete && r.status === 'pending' && (
              <ConfirmButton size="xs" color="red" variant="subtle" title="予約リクエストの削除" message={`${formatDateTime(r.execute_at)} の「${engineCommandLabel(r.cmd)}」を取り消します。よろしいですか？`} confirmLabel="取り消す" failureMessage={engineMessages.requestDeleteFailed} onConfirm={() => onDelete(r.request_id)}>
                取り消し
              </ConfirmButton>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

/** Reservation requests: permit or prohibit at a chosen time; the server's scheduler fires each once. */
export function RequestsCard({ carId }: { carId: string }) {
  const q = useQuery(requestsQuery(carId));
  const create = useCreateRequest();
  const del = useDeleteRequest();
  const [cmd, setCmd] = useState('1');
  const [at, setAt] = useState('');
  const fieldError = create.error instanceof ApiClientError ? create.error.errors['request.execute_at'] : undefined;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">予約リクエスト（日時指定）</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ car_id: carId, cmd: Number(cmd), execute_at: at }, { onSuccess: () => setAt('') });
        }}
      >
        <Group align="flex-end" mb="md">
          <Select label="コマンド" data={[{ value: '0', label: 'エンジン始動許可' }, { value: '1', label: 'エンジン始動禁止' }]} value={cmd} onChange={(v) => setCmd(v ?? cmd)} allowDeselect={false} w={180} />
          <TextInput type="datetime-local" label="実行日時" value={at} onChange={(e) => setAt(e.currentTarget.value)} error={fieldError} required />
          <Button type="submit" leftSection={<IconCalendarPlus size={16} />} loading={create.isPending} disabled={!at}>
            予約する
          </Button>
        </Group>
      </form>
      {create.isError && !fieldError && <Alert color="red" mb="sm" role="alert">{messageOf(create.error, engineMessages.requestFailed)}</Alert>}
      {q.isError && <Alert color="red" role="alert">{messageOf(q.error, engineMessages.fetchFailed)}</Alert>}
      <Table fz="sm" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>実行日時</Table.Th>
            <Table.Th>コマンド</Table.Th>
            <Table.Th>状態</Table.Th>
            <Table.Th>登録者</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {q.data && <Rows list={q.data.pending} onDelete={(id) => del.mutateAsync(id)} />}
          {q.data && <Rows list={q.data.recent.slice(0, 10)} />}
          {q.data && q.data.pending.length + q.data.recent.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}><Text c="dimmed" ta="center" size="sm" py="md">予約リクエストはありません。</Text></Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
