import {
  PAGE_RANGE,
  capabilities,
  parseDateBound,
  presetRange,
  reportLabels,
  summaryPresets,
  tripLabels,
  tripMessages,
  type FleetSummaryRow,
  type SortDir,
  type SummaryPreset,
} from '@fleet/contract';
import { Alert, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { CompanySelect } from '../../components/company-select';
import { DateField } from '../../components/date-fields';
import { GroupSelect } from '../../components/group-select';
import { ListTable, type ListColumn } from '../../components/list-shell/list-table';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';
import { useFleetSummary } from './api';
import { DownloadButtons } from './download-buttons';
import { reportTexts } from './texts';

const T = reportTexts.summary;
const L = tripLabels;
/** Rows a page: a fleet of thousands is paged on screen (the whole fleet is in the downloads). */
export const SUMMARY_PAGE_SIZE = 100;
const CUSTOM = 'custom';

type SortKey = keyof Pick<
  FleetSummaryRow,
  'car_number' | 'car_data_id' | 'distance_m' | 'driving_s' | 'trips' | 'stops' | 'max_speed_kmh'
>;

/** Rows in the chosen order; ties keep the server's order (by vehicle number). */
export function sortRows(rows: FleetSummaryRow[], key: SortKey, dir: SortDir): FleetSummaryRow[] {
  const sign = dir === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[key] ?? '';
    const y = b[key] ?? '';
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'ja');
    return sign * c;
  });
}

/** The レポート screen's summary: a range (presets or two days), the company for the super admin, the table and files. */
export function FleetSummary() {
  const actor = actorOf(useSession());
  const allCompanies = !!actor && capabilities(actor).allCompanies;
  const [preset, setPreset] = useState<SummaryPreset | typeof CUSTOM>('yesterday');
  const [custom, setCustom] = useState(() => presetRange('thisMonth', new Date()));
  const [company, setCompany] = useState<string | null>(null);
  const [group, setGroup] = useState<string | null>(null);
  const [sort, setSort] = useState<{ item: SortKey; dir: SortDir }>({ item: 'distance_m', dir: 'desc' });
  const [page, setPage] = useState(0);
  const range = preset === CUSTOM ? custom : presetRange(preset, new Date());
  const valid = !!parseDateBound(range.from, 'from') && !!parseDateBound(range.to, 'to');
  const q = useFleetSummary({ ...range, company_id: allCompanies ? company : null, group_id: group });
  const rows = useMemo(() => sortRows(q.data?.rows ?? [], sort.item, sort.dir), [q.data, sort]);
  const shown = rows.slice(page * SUMMARY_PAGE_SIZE, (page + 1) * SUMMARY_PAGE_SIZE);
  const total = q.data?.total;

  const columns: ListColumn<FleetSummaryRow>[] = [
    { sortKey: 'car_number', label: L.car_number, render: (r) => r.car_number || '—' },
    { sortKey: 'car_data_id', label: L.car_data_id, render: (r) => r.car_data_id ?? '—' },
    { sortKey: 'distance_m', label: L.distance_m, render: (r) => reportLabels.km(r.distance_m) },
    { sortKey: 'driving_s', label: L.driving_s, render: (r) => reportLabels.duration(r.driving_s) },
    { sortKey: 'trips', label: L.trip_count, render: (r) => `${r.trips}回` },
    { sortKey: 'stops', label: L.stop_count, render: (r) => `${r.stops}回` },
    { sortKey: 'max_speed_kmh', label: L.max_speed_kmh, render: (r) => `${Math.round(r.max_speed_kmh)} km/h` },
  ];
  // A range of one day opens that day's 運行日報.
  const link = (r: FleetSummaryRow) =>
    `${paths.car.dailyReport(r.car_id, r.car_data_id ?? '')}${range.from === range.to ? `?date=${range.from}` : ''}`;
  const fieldError = q.error instanceof ApiClientError ? q.error.errors : {};

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SegmentedControl
              value={preset}
              onChange={(v) => {
                setPreset(v as SummaryPreset | typeof CUSTOM);
                setPage(0);
              }}
              data={[
                ...summaryPresets.map((p) => ({ value: p, label: reportLabels.presets[p] })),
                { value: CUSTOM, label: '期間指定' },
              ]}
            />
            {preset === CUSTOM && (
              <>
                <DateField
                  label={T.from}
                  value={custom.from}
                  error={fieldError.from}
                  onChange={(from) => setCustom({ ...custom, from })}
                />
                <DateField
                  label={T.to}
                  value={custom.to}
                  error={fieldError.to}
                  onChange={(to) => setCustom({ ...custom, to })}
                />
              </>
            )}
            {allCompanies && (
              <CompanySelect
                value={company}
                onChange={(v) => {
                  setCompany(v);
                  setGroup(null);
                  setPage(0);
                }}
              />
            )}
            <GroupSelect
              value={group}
              onChange={(v) => {
                setGroup(v);
                setPage(0);
              }}
              companyId={company}
            />
          </Group>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed" data-testid="summary-range">
              {`${L.from}〜${L.to}: ${range.from.replaceAll('-', '/')}〜${range.to.replaceAll('-', '/')}`}
            </Text>
            <DownloadButtons
              query={{
                kind: 'summary',
                ...range,
                ...(allCompanies && company ? { company_id: company } : {}),
                ...(group ? { group_id: group } : {}),
              }}
              disabled={!valid || q.isError}
            />
          </Group>
        </Stack>
      </Paper>
      {q.isError && (
        <Alert color="red" role="alert">
          {messageOf(q.error, tripMessages.fetchFailed)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {[
          [reportLabels.vehicle, q.data ? T.vehicles(q.data.rows.length) : '—'],
          [`${L.distance_m}（${T.total}）`, total ? reportLabels.km(total.distance_m) : '—'],
          [`${L.driving_s}（${T.total}）`, total ? reportLabels.duration(total.driving_s) : '—'],
          [`${L.trip_count}（${T.total}）`, total ? `${total.trips}回` : '—'],
        ].map(([k, v]) => (
          <Paper key={k} withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {k}
            </Text>
            <Text fw={700} data-testid={`summary-${k}`}>
              {v}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <ListTable
        columns={columns}
        rows={shown}
        rowKey={(r) => r.car_id}
        rowLink={link}
        pending={q.isPending && !q.isError}
        fetching={q.isFetching}
        empty={T.empty}
        sort={{
          item: sort.item,
          dir: sort.dir,
          onSort: (key) => {
            setSort((s) =>
              s.item === key
                ? { item: s.item, dir: s.dir === 'desc' ? 'asc' : 'desc' }
                : { item: key as SortKey, dir: key === 'car_number' || key === 'car_data_id' ? 'asc' : 'desc' },
            );
            setPage(0);
          },
        }}
        paging={
          rows.length > SUMMARY_PAGE_SIZE
            ? { page, total: rows.length, size: SUMMARY_PAGE_SIZE, pageRange: PAGE_RANGE, onChange: setPage }
            : undefined
        }
      />
    </Stack>
  );
}
