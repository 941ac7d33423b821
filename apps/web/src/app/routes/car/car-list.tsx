import {
  capabilities,
  carLabels as L,
  carList,
  carListCount,
  carSearchColumns,
  customerStates,
  paymentDelays,
  type CarRow,
} from '@fleet/contract';
import { Alert, Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { GroupSelect } from '../../../components/group-select';
import { useListStore } from '../../../components/list-shell/list-state';
import { ListShell, type ListColumn } from '../../../components/list-shell/list-shell';
import { PageHeader } from '../../../components/page-header';
import { StatusBadge } from '../../../components/status-badge';
import { ownGroupsLimitedQuery } from '../../../features/account/api';
import { BulkTemplate } from '../../../features/areas/bulk-template';
import { carKeys } from '../../../features/car/api';
import { ConnectionBadge, DeviceStateBadge, EngineLineBadge, RunningBadge } from '../../../features/car/state-badges';
import { carTexts } from '../../../features/car/texts';
import { BulkGroup } from '../../../features/groups/bulk-group';
import { groupTexts } from '../../../features/groups/texts';
import { BulkZones } from '../../../features/zones/bulk-zones';
import { formatDateTime } from '../../../lib/format';
import { useLatestState, useLiveFeed, useLiveStore } from '../../../lib/live-feed';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';

const T = carTexts.list;
const B = groupTexts.bulkBar;

/** The latest state of a row, updated live while the list is open; compact so the row fits 1366 px. */
function Live({ row, part }: { row: CarRow; part: 'state' | 'seen' }) {
  const s = useLatestState(row.car_data_id, row.latest);
  if (part === 'seen') {
    // One line (YYYY/MM/DD HH:mm): a time read across two lines was taken for two values.
    return (
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(s?.last_seen_at) || '—'}
      </Text>
    );
  }
  // A vehicle without a terminal has no state to show: one badge says so instead of four 状態不明.
  if (!row.car_data_id)
    return (
      <Badge size="sm" variant="outline" color="gray">
        {T.noTerminal}
      </Badge>
    );
  return (
    // Wraps only where a cell cannot hold all four (a phone's card); at 1366 px they stay on one line.
    <Group gap={3}>
      <RunningBadge state={s} size="sm" />
      <EngineLineBadge state={s} size="sm" />
      <ConnectionBadge state={s} size="sm" />
      <DeviceStateBadge state={s} size="sm" />
    </Group>
  );
}

/**
 * A cell held to a width so one long name never pushes the row past 1366 px; the whole text is its tooltip.
 * `lines`: it wraps onto that many lines before it is cut (a company name is read whole where it fits in two).
 */
function Cut({
  w,
  fw,
  lines,
  children,
}: {
  w: number;
  fw?: number;
  lines?: number;
  children: string | null | undefined;
}) {
  return (
    <Text
      size="sm"
      fw={fw}
      maw={w}
      title={children ?? undefined}
      {...(lines ? { lineClamp: lines, style: { overflowWrap: 'anywhere' } } : { truncate: 'end' })}
    >
      {children || '—'}
    </Text>
  );
}

/**
 * The bulk actions over the vehicles picked (managers and administrators): a group, zones, an area
 * template; the outcome in words above the list.
 */
function BulkBar({ selected, onClear }: { selected: Set<string>; onClear(): void }) {
  const [done, setDone] = useState('');
  const companyId = useListStore((s) => s.queries[carKeys.all[0]]?.companyId ?? null);
  const carIds = [...selected];
  // An account limited to groups may not change groups: zones and templates only.
  const groupsLimited = useQuery(ownGroupsLimitedQuery()).data ?? false;
  const finish = (message: string) => {
    setDone(message);
    onClear();
  };
  return (
    <>
      {done && (
        <Alert color="teal" role="status" withCloseButton onClose={() => setDone('')} mb="xs" py={6}>
          {done}
        </Alert>
      )}
      <Paper withBorder radius="md" px="md" py={6} mb="xs" role="toolbar" aria-label={B.title}>
        <Group gap="xs">
          <Text size="sm" fw={600} mr="xs">
            {carIds.length ? B.selected(carIds.length) : B.none}
          </Text>
          {!groupsLimited && <BulkGroup carIds={carIds} companyId={companyId} onDone={finish} />}
          <BulkZones carIds={carIds} companyId={companyId} onDone={finish} />
          <BulkTemplate carIds={carIds} onDone={finish} />
          {carIds.length > 0 && (
            <Button size="xs" variant="subtle" color="gray" onClick={onClear}>
              {B.clear}
            </Button>
          )}
        </Group>
      </Paper>
    </>
  );
}

/** `/car/car_list`: the home screen after login. Its search query is kept across navigation and reloads. */
export function Component() {
  useLiveFeed();
  const live = useLiveStore((s) => s.connected);
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  // 車種 and 販売店 start hidden (表示項目 shows them): with them the row no longer fits 1366 px.
  const columns: ListColumn<CarRow>[] = [
    { sortKey: 'car_id', label: L.car_id, render: (r) => <Cut w={100}>{r.car_id}</Cut> },
    {
      sortKey: 'car_number',
      label: L.car_number,
      render: (r) => (
        <Cut w={150} fw={600}>
          {r.car_number}
        </Cut>
      ),
    },
    { sortKey: 'car_type', label: L.car_type, render: (r) => r.car_type, optional: 'hidden' },
    { sortKey: 'user_name', label: L.user_name, render: (r) => <Cut w={120}>{r.user_name}</Cut> },
    { sortKey: 'merchant', label: L.merchant, render: (r) => r.merchant ?? '', optional: 'hidden' },
    {
      sortKey: 'payment_log',
      label: L.payment_log,
      render: (r) => <StatusBadge size="sm" value={paymentDelays[r.payment_log ?? -1]} fallback="—" />,
      optional: 'shown',
    },
    {
      label: T.contract,
      render: (r) => <StatusBadge size="sm" value={customerStates[r.user_state ?? -1]} fallback="—" />,
      optional: 'shown',
    },
    { label: T.terminal, render: (r) => <Live row={r} part="state" /> },
    { label: T.lastSeen, render: (r) => <Live row={r} part="seen" />, optional: 'shown' },
    ...(caps.allCompanies
      ? [
          {
            sortKey: 'company_name',
            label: L.company_name,
            render: (r: CarRow) => (
              <Cut w={150} lines={2}>
                {r.company_name}
              </Cut>
            ),
            optional: 'shown' as const,
          },
        ]
      : []),
    {
      label: T.status,
      render: (r) =>
        r.isDelete ? (
          <Badge size="sm" color="dark">
            {T.deleted}
          </Badge>
        ) : (
          <Badge size="sm" variant="light" color="teal">
            {T.active}
          </Badge>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title={T.title}
        description={
          <Group gap={6} component="span">
            <Badge size="xs" variant="dot" color={live ? 'green' : 'gray'} component="span">
              {live ? T.live : T.waiting}
            </Badge>
          </Group>
        }
        actions={
          caps.registerCarsAndCustomers && (
            <Button component={Link} to={paths.car.add} leftSection={<IconPlus size={16} />}>
              {T.add}
            </Button>
          )
        }
      />
      {caps.editCarsAndCustomers && <BulkBar selected={selected} onClear={() => setSelected(new Set())} />}
      <ListShell
        id={carKeys.all[0]}
        countCall={carListCount}
        listCall={carList}
        searchColumns={carSearchColumns}
        defaultSort={{ item: 'car_id' }}
        flags={[{ key: 'isNormal', label: L.isNormal }]}
        companyFilter={caps.allCompanies}
        fieldFilters={[
          {
            key: 'group_id',
            render: (value, onChange, q) => <GroupSelect value={value} onChange={onChange} companyId={q.companyId} />,
          },
        ]}
        selection={
          caps.editCarsAndCustomers
            ? { selected, onChange: setSelected, label: (r) => r.car_number || r.car_id }
            : undefined
        }
        rowKey={(r) => r.car_id}
        rowLink={(r) => paths.car.detail(r.car_id, r.car_data_id ?? '')}
        columns={columns}
        minWidth={0}
        compact
      />
    </>
  );
}
