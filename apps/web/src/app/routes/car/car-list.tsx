import { capabilities, carLabels as L, carList, carListCount, carSearchColumns, customerStates, paymentDelays, type CarRow } from '@fleet/contract';
import { Badge, Button, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell, type ListColumn } from '../../../components/list-shell/list-shell';
import { PageHeader } from '../../../components/page-header';
import { StatusBadge } from '../../../components/status-badge';
import { carKeys } from '../../../features/car/api';
import { ConnectionBadge, DeviceStateBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed, useLiveStore } from '../../../lib/live-feed';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';

/** The latest state of a row, updated live while the list is open. */
function Live({ row, part }: { row: CarRow; part: 'state' | 'seen' }) {
  const s = useLatestState(row.car_data_id, row.latest);
  if (part === 'seen') return <Text size="xs" c="dimmed">{formatDateTime(s?.last_seen_at) || '—'}</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      <RunningBadge state={s} />
      <EngineLineBadge state={s} />
      <ConnectionBadge state={s} />
      <DeviceStateBadge state={s} />
    </Group>
  );
}

/** `/car/car_list`: the home screen after login. Its search query is kept across navigation and reloads. */
export function Component() {
  useLiveFeed();
  const live = useLiveStore((s) => s.connected);
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  const columns: ListColumn<CarRow>[] = [
    { sortKey: 'car_id', label: L.car_id, render: (r) => r.car_id },
    { sortKey: 'car_number', label: L.car_number, render: (r) => <Text size="sm" fw={600}>{r.car_number}</Text> },
    { sortKey: 'car_type', label: L.car_type, render: (r) => r.car_type },
    { sortKey: 'user_name', label: L.user_name, render: (r) => r.user_name ?? '—' },
    { sortKey: 'merchant', label: L.merchant, render: (r) => r.merchant ?? '' },
    { sortKey: 'payment_log', label: L.payment_log, render: (r) => <StatusBadge value={paymentDelays[r.payment_log ?? -1]} fallback="—" /> },
    { label: '契約状態', render: (r) => <StatusBadge value={customerStates[r.user_state ?? -1]} fallback="—" /> },
    { label: '走行・エンジン始動・通信・端末', render: (r) => <Live row={r} part="state" /> },
    { label: '最終受信', render: (r) => <Live row={r} part="seen" /> },
    ...(caps.allCompanies ? [{ sortKey: 'company_name', label: L.company_name, render: (r: CarRow) => r.company_name ?? '—' }] : []),
    { label: '状態', render: (r) => (r.isDelete ? <Badge color="dark">削除済み</Badge> : null) },
  ];
  return (
    <>
      <PageHeader
        title="車両一覧"
        description={
          <Group gap={6} component="span">
            <Badge size="xs" variant="dot" color={live ? 'green' : 'gray'} component="span">
              {live ? 'ライブ更新中' : '接続待ち'}
            </Badge>
          </Group>
        }
        actions={caps.registerCarsAndCustomers && <Button component={Link} to={paths.car.add} leftSection={<IconPlus size={16} />}>車両登録</Button>}
      />
      <ListShell<CarRow, typeof carList>
        id={carKeys.all[0]}
        countCall={carListCount}
        listCall={carList}
        searchColumns={carSearchColumns}
        defaultSort={{ item: 'car_id' }}
        flags={[{ key: 'isNormal', label: L.isNormal }]}
        companyFilter={caps.allCompanies}
        rowKey={(r) => r.car_id}
        rowLink={(r) => paths.car.detail(r.car_id, r.car_data_id ?? '')}
        columns={columns}
      />
    </>
  );
}
