import {
  capabilities,
  notifyHistoryChannelLabels,
  notifyHistoryLabels as l,
  notifyHistoryList,
  notifyHistoryListCount,
  notifyHistorySearchColumns,
  notifyHistoryStatusLabels,
  notifyKeyLabel,
  type NotifyHistoryRow,
} from '@fleet/contract';
import { Badge, Stack, Text } from '@mantine/core';
import { ListShell } from '../../components/list-shell/list-shell';
import { PageHeader } from '../../components/page-header';
import { notifyKeys } from '../../features/notify/api';
import { notifyTexts } from '../../features/notify/texts';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';

/** The history's rows change on their own (待機中 → 送信済み / 失敗): the open screen refetches them, as the mail outbox does. */
const HISTORY_REFRESH_MS = 15_000;

const statusColor = { pending: 'yellow', sent: 'green', failed: 'red' } as const;

/** `/notify/history` (administrators and managers): every notification and where it went, with its state. */
export function Component() {
  const caps = capabilities(actorOf(useSession())!);
  return (
    <>
      <PageHeader title={notifyTexts.history.title} description={notifyTexts.history.description} />
      <ListShell
        id={notifyKeys.history[0]}
        countCall={notifyHistoryListCount}
        listCall={notifyHistoryList}
        searchColumns={notifyHistorySearchColumns}
        defaultSort={{ item: 'queued_at', dir: 'desc' }}
        companyFilter={caps.allCompanies}
        deletable={false}
        refetchInterval={HISTORY_REFRESH_MS}
        rowKey={(r: NotifyHistoryRow) => r.key}
        rowLink={(r) => paths.car.detail(r.car_id)}
        emptyMessage={notifyTexts.history.empty}
        columns={[
          { sortKey: 'queued_at', label: l.queued_at, render: (r) => formatDateTime(r.queued_at) },
          {
            sortKey: 'channel',
            label: l.channel,
            render: (r) => (
              <Badge variant="light" color={r.channel === 'push' ? 'violet' : r.channel === 'mail' ? 'blue' : 'gray'}>
                {notifyHistoryChannelLabels[r.channel]}
              </Badge>
            ),
          },
          { sortKey: 'item', label: l.item, render: (r) => notifyKeyLabel(r.item) },
          {
            sortKey: 'car_number',
            label: l.car_number,
            render: (r) => (
              <Stack gap={0}>
                <Text size="sm">{r.car_number || r.car_id}</Text>
                <Text size="xs" c="dimmed">
                  {r.car_id}
                </Text>
              </Stack>
            ),
          },
          { sortKey: 'recipient', label: l.recipient, render: (r) => <Text size="sm">{r.recipient}</Text> },
          {
            label: l.status,
            render: (r) => (
              <Stack gap={2}>
                <Badge color={statusColor[r.status]} variant="light">
                  {notifyHistoryStatusLabels[r.status]}
                </Badge>
                {r.sent_at && (
                  <Text size="xs" c="dimmed">
                    {formatDateTime(r.sent_at)}
                  </Text>
                )}
                {r.last_error && (
                  <Text size="xs" c="red" title={r.last_error} lineClamp={2}>
                    {r.last_error}
                  </Text>
                )}
              </Stack>
            ),
          },
        ]}
      />
    </>
  );
}
