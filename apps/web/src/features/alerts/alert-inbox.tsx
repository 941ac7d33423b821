import { alertKindLabels, type AlertRow } from '@fleet/contract';
import { Badge, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DateField } from '../../components/date-fields';
import { ListTable, tableOf, type ListColumn } from '../../components/list-shell/list-table';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { alertListQuery, useAckAlert } from './api';
import { alertTexts as t } from './texts';

const zoneKinds = new Set(['zone_enter', 'zone_exit']);

/** Every alert with its vehicle and time, newest first; one click acknowledges it (who and when are kept). */
export function AlertInbox() {
  const [unacknowledged, setUnacknowledged] = useState(true);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const range = from && to ? { from, to } : { from: '', to: '' };
  const q = useQuery(alertListQuery(unacknowledged, range.from, range.to));
  const ack = useAckAlert();
  const columns: ListColumn<AlertRow>[] = [
    { label: t.columns.at, render: (a) => formatDateTime(a.happened_at) },
    {
      label: t.columns.car,
      render: (a) => <Link to={paths.car.detail(a.car_id, a.car_data_id ?? '')}>{a.car_number || a.car_id}</Link>,
    },
    {
      label: t.columns.kind,
      render: (a) => (
        <Badge color={zoneKinds.has(a.kind) ? 'grape' : 'orange'} variant="light">
          {alertKindLabels[a.kind]}
        </Badge>
      ),
    },
    { label: t.columns.what, render: (a) => a.what },
    {
      label: t.columns.ack,
      render: (a) =>
        a.acked_at ? (
          <Text size="xs" c="dimmed">
            {t.acked(a.acked_by_name ?? a.acked_by ?? '', formatDateTime(a.acked_at))}
          </Text>
        ) : (
          <Button
            size="compact-xs"
            variant="light"
            loading={ack.isPending && ack.variables === a.alert_id}
            onClick={() => ack.mutate(a.alert_id)}
          >
            {t.ack}
          </Button>
        ),
    },
  ];
  return (
    <Stack gap="sm">
      <Group align="flex-end">
        <Checkbox
          label={t.onlyUnacknowledged}
          checked={unacknowledged}
          onChange={(e) => setUnacknowledged(e.currentTarget.checked)}
        />
        <DateField label={t.from} value={from} onChange={setFrom} clearable />
        <DateField label={t.to} value={to} onChange={setTo} clearable />
      </Group>
      <ListTable columns={columns} rowKey={(a) => a.alert_id} {...tableOf(q)} empty={t.empty} minWidth={800} wrap />
    </Stack>
  );
}
