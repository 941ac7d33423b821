import { alertKindLabels, alertKinds, validationMessages, type AlertKind, type AlertRow } from '@fleet/contract';
import { Alert, Badge, Button, Checkbox, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DateField } from '../../components/date-fields';
import { ListTable, type ListColumn } from '../../components/list-shell/list-table';
import { usePaging } from '../../components/list-shell/use-paging';
import { messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { alertListQuery, useAckAlert, useAckAlerts } from './api';
import { alertTexts as t } from './texts';

const zoneKinds = new Set(['zone_enter', 'zone_exit']);
const kindOptions = alertKinds.map((k) => ({ value: k, label: alertKindLabels[k] }));
const carOf = (a: AlertRow) => a.car_number || a.car_id;

/**
 * Every alert with its vehicle and time, newest first, a page at a time (the paging of the logs and
 * outboxes): filtered by kind, vehicle and dates; acknowledged one by one or the picked ones at once.
 */
export function AlertInbox() {
  const [unacknowledged, setUnacknowledged] = useState(true);
  const [kind, setKind] = useState<AlertKind | null>(null);
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), 300);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [done, setDone] = useState('');
  const page = usePaging();
  // A range takes both ends (as every range of the app): one alone is said on the other field, not sent.
  const oneEnd = !from !== !to;
  const q = useQuery(
    alertListQuery(
      { unacknowledged, ...(kind ? { kind } : {}), search_text: search, from, to, ...page.request },
      !oneEnd,
    ),
  );
  const ack = useAckAlert();
  const ackMany = useAckAlerts();
  const filter =
    <V,>(set: (v: V) => void) =>
    (v: V) => {
      set(v);
      page.reset();
    };
  const columns: ListColumn<AlertRow>[] = [
    { label: t.columns.at, render: (a) => formatDateTime(a.happened_at) },
    {
      label: t.columns.car,
      render: (a) => <Link to={paths.car.detail(a.car_id, a.car_data_id ?? '')}>{carOf(a)}</Link>,
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
  const ackSelected = () =>
    ackMany.mutate([...selected], {
      onSuccess: (r) => {
        setDone(t.ackedMany(r.count));
        setSelected(new Set());
      },
    });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t.kind}
            placeholder={t.allKinds}
            clearable
            data={kindOptions}
            value={kind}
            onChange={filter((v: string | null) => setKind(v as AlertKind | null))}
            w={200}
          />
          <TextInput
            label={t.car}
            placeholder={t.carPlaceholder}
            value={text}
            onChange={(e) => filter(setText)(e.currentTarget.value)}
            w={200}
          />
          <DateField
            label={t.from}
            value={from}
            onChange={filter(setFrom)}
            clearable
            error={oneEnd && !from ? validationMessages.dateRange : undefined}
          />
          <DateField
            label={t.to}
            value={to}
            onChange={filter(setTo)}
            clearable
            error={oneEnd && !to ? validationMessages.dateRange : undefined}
          />
          <Checkbox
            label={t.onlyUnacknowledged}
            checked={unacknowledged}
            onChange={(e) => filter(setUnacknowledged)(e.currentTarget.checked)}
            mb={8}
          />
        </Group>
        {done && (
          <Alert color="teal" role="status" withCloseButton onClose={() => setDone('')} py={6}>
            {done}
          </Alert>
        )}
        {ackMany.error && (
          <Alert color="red" role="alert" py={6}>
            {messageOf(ackMany.error)}
          </Alert>
        )}
        <Group gap="xs" wrap="wrap">
          <Button size="xs" disabled={selected.size === 0} loading={ackMany.isPending} onClick={ackSelected}>
            {t.ackSelected(selected.size)}
          </Button>
          {selected.size > 0 && (
            <Button size="xs" variant="subtle" color="gray" onClick={() => setSelected(new Set())}>
              {t.clear}
            </Button>
          )}
        </Group>
        <ListTable
          columns={columns}
          rowKey={(a) => a.alert_id}
          empty={t.empty}
          minWidth={800}
          wrap
          selection={{
            selected,
            onChange: setSelected,
            label: (a) => t.rowLabel(formatDateTime(a.happened_at), carOf(a), alertKindLabels[a.kind]),
            selectable: (a) => !a.acked_at,
          }}
          {...page.table(q)}
        />
      </Stack>
    </Paper>
  );
}
