import { errorMessages, LOG_EXPORT_PATH, telemetryMessages } from '@fleet/contract';
import { Alert, Button, Group, Paper, Progress, ScrollArea, Table, Text } from '@mantine/core';
import { IconDownload, IconFileText } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { TimeChart } from '../../components/chart/time-chart';
import { EmptyRow } from '../../components/list-shell/list-table';
import { messageOf } from '../../lib/api-client';
import { fileStamp } from '../../lib/format';
import { shellTexts } from '../../lib/texts';
import { downloadStream, saveBlob } from '../../lib/download';
import type { LogKindView, LogPageBody } from './log-kinds';
import { carLogTexts as T } from './texts';
const PAGE = 1000;

type PageCursor = Pick<LogPageBody, 'before_id' | 'before_at'>;

/** One log of a terminal: chart (where a person would rather look), table paged by before_id, CSV and text download. */
export function LogPanel({
  view,
  carDataId,
  from,
  to,
}: {
  view: LogKindView;
  carDataId: string;
  from: string;
  to: string;
}) {
  const q = useInfiniteQuery({
    queryKey: ['car-log', view.kind, carDataId, from, to],
    queryFn: ({ pageParam, signal }) =>
      view.load({ car_data_id: carDataId, from, to, limit: PAGE, ...pageParam }, signal),
    // The next (older) page starts after the last row: its id, and its time (the server then looks for it in one day).
    initialPageParam: {} as PageCursor,
    getNextPageParam: (last): PageCursor | undefined =>
      last.next_before_id == null
        ? undefined
        : { before_id: last.next_before_id, ...(last.next_before_at ? { before_at: last.next_before_at } : {}) },
    // A failed or pending new range leaves the last rows on screen.
    placeholderData: keepPreviousData,
  });
  const fetched = useMemo(() => q.data?.pages.flatMap((p) => p.list) ?? [], [q.data]);
  // The table is newest first like every log; a route (GPS) arrives oldest first.
  const rows = useMemo(() => (view.oldestFirst ? [...fetched].reverse() : fetched), [fetched, view.oldestFirst]);
  const chart = useMemo(() => {
    if (!view.chart || rows.length < 2) return null;
    const asc = [...rows].reverse();
    const c = view.chart(asc);
    return c && { ...c, x: asc.map((r) => Date.parse(r.recorded_at) / 1000) };
  }, [rows, view]);
  const [progress, setProgress] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);

  const exportCsv = async () => {
    setNotice(null);
    setProgress(0);
    try {
      const params = new URLSearchParams({ kind: view.kind, car_data_id: carDataId, from, to });
      const blob = await downloadStream(`${LOG_EXPORT_PATH}?${params}`, (p) => setProgress(p.lines));
      if (!blob) setNotice({ color: 'yellow', text: T.panel.noData });
      else saveBlob(blob, `${view.kind}_log_${carDataId}_${fileStamp()}.csv`);
    } catch (e) {
      setNotice({ color: 'red', text: messageOf(e, telemetryMessages.exportFailed) });
    } finally {
      setProgress(null);
    }
  };
  const exportText = () => {
    const lines = [
      view.columns.map((c) => c.label).join('\t'),
      ...rows.map((r) => view.columns.map((c) => c.text(r)).join('\t')),
    ];
    saveBlob(
      new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/plain;charset=utf-8' }),
      `${view.kind}_log_${carDataId}_${fileStamp()}.txt`,
    );
  };

  return (
    <Paper withBorder p="md" radius="md">
      {q.isError && (
        <Alert color="red" role="alert" mb="sm">
          {messageOf(
            q.error,
            (q.error as { status?: number }).status === 401
              ? errorMessages.fetchFailed
              : telemetryMessages.logFetchFailed,
          )}
        </Alert>
      )}
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed" data-testid="log-count">
          {q.isPending ? shellTexts.loading : T.panel.shown(rows.length)}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFileText size={14} />}
            onClick={exportText}
            disabled={!rows.length}
          >
            {T.panel.text}
          </Button>
          <Button size="xs" leftSection={<IconDownload size={14} />} onClick={exportCsv} loading={progress !== null}>
            {T.panel.csv}
          </Button>
        </Group>
      </Group>
      {progress !== null && (
        <Group gap="xs" mb="sm">
          <Progress value={100} animated striped style={{ flex: 1 }} aria-label={T.panel.exporting} />
          <Text size="xs" c="dimmed">
            {T.panel.received(progress)}
          </Text>
        </Group>
      )}
      {notice && (
        <Alert color={notice.color} mb="sm" role="status">
          {notice.text}
        </Alert>
      )}
      {chart && <TimeChart title={chart.title} x={chart.x} series={chart.series} />}
      <ScrollArea h={chart ? 360 : 520} mt="sm" type="auto">
        <Table striped stickyHeader verticalSpacing={4} fz="sm" aria-label={T.panel.tableLabel(view.label)}>
          <Table.Thead>
            <Table.Tr>
              {view.columns.map((c) => (
                <Table.Th key={c.label}>{c.label}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id ?? r.recorded_at}>
                {view.columns.map((c) => (
                  <Table.Td key={c.label}>{c.render(r)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
            {!q.isPending && rows.length === 0 && <EmptyRow colSpan={view.columns.length}>{T.panel.empty}</EmptyRow>}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {q.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="light" size="xs" onClick={() => q.fetchNextPage()} loading={q.isFetchingNextPage}>
            {T.panel.more}
          </Button>
        </Group>
      )}
    </Paper>
  );
}
