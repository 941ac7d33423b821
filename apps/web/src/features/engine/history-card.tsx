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
        {/* Fits the half-width card at 1366 px: the date keeps one line, the command's type goes under its
            content and the other cells wrap, so 結果 and 指示者 are always in view without a sideways scroll. */}
        <Table fz="sm" striped stickyHeader aria-label={T.history.title} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={128}>{T.history.columns.createdAt}</Table.Th>
              <Table.Th>{T.history.columns.content}</Table.Th>
              <Table.Th>{T.history.columns.result}</Table.Th>
              <Table.Th>{T.history.columns.orderedBy}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data?.list.map((c) => (
              <Table.Tr key={c.command_id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.created_at)}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {c.cmd_type === 'set_engine_boot_permission'
                    ? engineCommandLabel(c.cmd_info.cmd)
                    : JSON.stringify(c.cmd_info)}
                  <Text size="xs" c="dimmed">
                    {reservedCommandTypeLabels[c.cmd_type as ReservedCommandType] ?? c.cmd_type}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" size="sm" color={c.status === 'cancelled' ? 'dark' : undefined}>
                    {commandStatusLabels[c.status]}
                  </Badge>
                  {c.cancel_reason && (
                    <Text size="xs" c="red">
                      {c.cancel_reason}
                    </Text>
                  )}
                  {c.link_changed && c.sent_link && c.answer_link && (
                    // The answer came on another TCP link than the command went out on: possibly not the vehicle.
                    <Text size="xs" c="orange.8" role="alert">
                      {terminalIdentityTexts.linkChangedWarning}
                      <br />
                      {terminalIdentityTexts.sentOn}: {linkLabel(c.sent_link, formatDateTime)}
                      <br />
                      {terminalIdentityTexts.answeredOn}: {linkLabel(c.answer_link, formatDateTime)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {c.created_by_name ?? c.created_by ?? T.history.byRequest}
                </Table.Td>
              </Table.Tr>
            ))}
            {q.data?.list.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>
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
