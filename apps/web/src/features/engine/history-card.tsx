import {
  commandStatusLabels,
  engineCommandLabel,
  linkLabel,
  reservedCommandTypeLabels,
  terminalIdentityTexts,
  type ReservedCommandType,
} from '@fleet/contract';
import { Badge, Card, ScrollArea, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../lib/format';
import { historyQuery, useEngineFollowsLive } from './api';
import { engineTexts as T } from './texts';

/** Every command of the terminal, newest first, with who ordered it and how it ended (the start/stop log). */
export function HistoryCard({ carDataId }: { carDataId: string }) {
  const q = useQuery(historyQuery(carDataId));
  useEngineFollowsLive(carDataId);
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h5" mb="md">
        {T.history.title}
      </Title>
      <ScrollArea h={300} type="auto">
        {/* One line per command: dates and names never wrap; the area scrolls sideways instead. */}
        <Table
          fz="sm"
          striped
          stickyHeader
          aria-label={T.history.title}
          styles={{ td: { whiteSpace: 'nowrap' }, th: { whiteSpace: 'nowrap' } }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.history.columns.createdAt}</Table.Th>
              <Table.Th>{T.history.columns.type}</Table.Th>
              <Table.Th>{T.history.columns.content}</Table.Th>
              <Table.Th>{T.history.columns.result}</Table.Th>
              <Table.Th>{T.history.columns.orderedBy}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data?.list.map((c) => (
              <Table.Tr key={c.command_id}>
                <Table.Td>{formatDateTime(c.created_at)}</Table.Td>
                <Table.Td>{reservedCommandTypeLabels[c.cmd_type as ReservedCommandType] ?? c.cmd_type}</Table.Td>
                <Table.Td>
                  {c.cmd_type === 'set_engine_boot_permission'
                    ? engineCommandLabel(c.cmd_info.cmd)
                    : JSON.stringify(c.cmd_info)}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" size="sm" color={c.status === 'cancelled' ? 'dark' : undefined}>
                    {commandStatusLabels[c.status]}
                  </Badge>
                  {c.cancel_reason && (
                    <Text size="xs" c="red" style={{ whiteSpace: 'normal' }}>
                      {c.cancel_reason}
                    </Text>
                  )}
                  {c.link_changed && c.sent_link && c.answer_link && (
                    // The answer came on another TCP link than the command went out on: possibly not the vehicle.
                    <Text size="xs" c="orange.8" role="alert" style={{ whiteSpace: 'normal' }} maw={360}>
                      {terminalIdentityTexts.linkChangedWarning}
                      <br />
                      {terminalIdentityTexts.sentOn}: {linkLabel(c.sent_link, formatDateTime)}
                      <br />
                      {terminalIdentityTexts.answeredOn}: {linkLabel(c.answer_link, formatDateTime)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{c.created_by_name ?? c.created_by ?? T.history.byRequest}</Table.Td>
              </Table.Tr>
            ))}
            {q.data?.list.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" size="sm" py="md">
                    {T.history.empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Card>
  );
}
