import {
  engineCommandLabel,
  engineCommands,
  engineMessages,
  requestStatusLabels,
  commandStatusLabels,
  type ReservationRequest,
} from '@fleet/contract';
import { Alert, Button, Card, Group, Select, Table, Text, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeField } from '../../components/date-fields';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { requestsQuery, useCreateRequest, useDeleteRequest, useEngineFollowsRequests } from './api';
import { useEngineRight } from './api-authority';
import { ProhibitButton } from './prohibit-button';
import { engineTexts as T } from './texts';

/** The status, what became of the fired command, and why it failed or who (or what) cancelled it. */
function RequestStatus({ r }: { r: ReservationRequest }) {
  const cancelledBy = r.status === 'cancelled' && !r.reason ? (r.cancelled_by_name ?? r.cancelled_by) : null;
  return (
    <>
      {requestStatusLabels[r.status]}
      {r.command_status && `（${commandStatusLabels[r.command_status]}）`}
      {r.reason && (
        <Text size="xs" c="red">
          {r.reason}
        </Text>
      )}
      {cancelledBy && (
        <Text size="xs" c="dimmed">
          {T.cancelledBy(cancelledBy)}
        </Text>
      )}
    </>
  );
}

function Rows({ list, onDelete }: { list: ReservationRequest[]; onDelete?: (id: string) => Promise<unknown> }) {
  return (
    <>
      {list.map((r) => (
        <Table.Tr key={r.request_id}>
          <Table.Td>{formatDateTime(r.execute_at)}</Table.Td>
          <Table.Td>{engineCommandLabel(r.cmd)}</Table.Td>
          <Table.Td>
            <RequestStatus r={r} />
          </Table.Td>
          <Table.Td>{r.created_by_name ?? r.created_by ?? '—'}</Table.Td>
          <Table.Td>
            {onDelete && r.status === 'pending' && (
              <ConfirmButton
                size="xs"
                color="red"
                variant="subtle"
                title={T.requests.deleteTitle}
                message={T.requests.deleteMessage(formatDateTime(r.execute_at), engineCommandLabel(r.cmd))}
                confirmLabel={T.requests.deleteConfirm}
                failureMessage={engineMessages.requestDeleteFailed}
                onConfirm={() => onDelete(r.request_id)}
              >
                {T.requests.delete}
              </ConfirmButton>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

/** Permit or prohibit at a chosen time; a prohibit gets the same confirmation as an immediate one. */
function RequestForm({ carId, carNumber }: { carId: string; carNumber: string }) {
  const create = useCreateRequest();
  const [cmd, setCmd] = useState('1');
  const [at, setAt] = useState('');
  const fieldError = create.error instanceof ApiClientError ? create.error.errors['request.execute_at'] : undefined;
  const submit = () => create.mutateAsync({ car_id: carId, cmd: Number(cmd), execute_at: at }).then(() => setAt(''));
  return (
    <>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // A prohibit goes through its confirmation dialog only.
          if (cmd === '0') submit().catch(() => undefined);
        }}
      >
        <Group align="flex-end" mb="md" gap="sm">
          <Select
            label={T.requests.command}
            data={[
              { value: '0', label: engineCommands.on.label },
              { value: '1', label: engineCommands.off.label },
            ]}
            value={cmd}
            onChange={(v) => setCmd(v ?? cmd)}
            allowDeselect={false}
            w={170}
          />
          <DateTimeField label={T.requests.executeAt} value={at} onChange={setAt} error={fieldError} required w={205} />
          {cmd === '1' ? (
            <ProhibitButton
              leftSection={<IconCalendarPlus size={16} />}
              disabled={!at}
              carNumber={carNumber}
              message={T.prohibitAt(carNumber, formatDateTime(at))}
              failureMessage={engineMessages.requestFailed}
              onProhibit={submit}
            >
              {T.requests.reserve}
            </ProhibitButton>
          ) : (
            <Button
              type="submit"
              leftSection={<IconCalendarPlus size={16} />}
              loading={create.isPending}
              disabled={!at}
            >
              {T.requests.reserve}
            </Button>
          )}
        </Group>
      </form>
      {create.isError && !fieldError && (
        <Alert color="red" mb="sm" role="alert">
          {messageOf(create.error, engineMessages.requestFailed)}
        </Alert>
      )}
    </>
  );
}

/** Reservation requests: permit or prohibit at a chosen time; the server's scheduler fires each once. */
export function RequestsCard({ carId, carNumber }: { carId: string; carNumber: string }) {
  const q = useQuery(requestsQuery(carId));
  useEngineFollowsRequests(q.data?.pending.length);
  const right = useEngineRight();
  const del = useDeleteRequest();
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">
        {T.requests.title}
      </Title>
      {right ? (
        <RequestForm carId={carId} carNumber={carNumber} />
      ) : right === false ? (
        <Alert color="gray" mb="md">
          {engineMessages.noEngineRight}
        </Alert>
      ) : null}
      {q.isError && (
        <Alert color="red" role="alert">
          {messageOf(q.error, engineMessages.fetchFailed)}
        </Alert>
      )}
      <Table fz="sm" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{T.requests.columns.executeAt}</Table.Th>
            <Table.Th>{T.requests.columns.command}</Table.Th>
            <Table.Th>{T.requests.columns.status}</Table.Th>
            <Table.Th>{T.requests.columns.createdBy}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {q.data && <Rows list={q.data.pending} onDelete={right ? (id) => del.mutateAsync(id) : undefined} />}
          {q.data && <Rows list={q.data.recent.slice(0, 10)} />}
          {q.data && q.data.pending.length + q.data.recent.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed" ta="center" size="sm" py="md">
                  {T.requests.empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
