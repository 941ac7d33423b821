import {
  dailyTotals,
  exportTime,
  jstDayOf,
  jstDayRange,
  placeOf,
  reportLabels,
  tripLabels,
  tripMessages,
  type Stop,
  type Trip,
} from '@fleet/contract';
import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ListTable, type ListColumn } from '../../components/list-shell/list-table';
import { MapHost } from '../../components/map/map-host';
import { RouteLayer } from '../../components/map/route-layer';
import { StopMarkers, type StopMark } from '../../components/map/stop-markers';
import { messageOf } from '../../lib/api-client';
import { useDayRoute, useDayTrips } from './api';
import { DayPicker } from './day-picker';
import { DownloadButtons } from './download-buttons';
import { reportTexts } from './texts';

const T = reportTexts.daily;
const L = tripLabels;

/** HH:mm in Japan, with the date in front when it is not the report's day (a trip across midnight). */
export function clock(at: string | null, day: string): string {
  if (!at) return T.stillStopped;
  const t = exportTime(at);
  const hm = t.slice(11, 16);
  return jstDayOf(at) === day ? hm : `${t.slice(5, 10)} ${hm}`;
}
const minutes = (s: number) => Math.round(s / 60);

/** The 運行日報 of one vehicle: a day in Japan, its totals, its trips and stops on the map and in tables. */
export function DailyReport({ carDataId }: { carDataId: string }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const day = jstDayRange(asked) ? asked : jstDayOf(new Date());
  const setDay = (d: string) => setParams({ date: d }, { replace: true });
  const q = useDayTrips(carDataId, day);
  const route = useDayRoute(carDataId, day);
  const trips = useMemo(() => q.data?.trips ?? [], [q.data]);
  const stops = useMemo(() => q.data?.stops ?? [], [q.data]);
  const totals = dailyTotals(trips, stops);
  const points = useMemo(() => route.data?.list ?? [], [route.data]);
  const marks = useMemo<StopMark[]>(
    () =>
      stops.map((s, i) => ({
        key: s.start_at,
        lat: s.lat,
        lng: s.lng,
        current: s.end_at === null,
        label: T.stopLabel(i + 1, clock(s.start_at, day), clock(s.end_at, day), minutes(s.duration_s)),
      })),
    [stops, day],
  );
  const empty = q.isSuccess && trips.length === 0 && stops.length === 0;

  const tripColumns: ListColumn<Trip & { n: number }>[] = [
    { label: '#', render: (t) => t.n, width: 40 },
    { label: L.start_at, render: (t) => clock(t.start_at, day) },
    { label: L.end_at, render: (t) => clock(t.end_at, day) },
    { label: L.start_address, render: (t) => placeOf(t.start_address, t.start_lat, t.start_lng) },
    { label: L.end_address, render: (t) => placeOf(t.end_address, t.end_lat, t.end_lng) },
    { label: L.distance_m, render: (t) => reportLabels.km(t.distance_m) },
    { label: L.duration_s, render: (t) => reportLabels.duration(t.duration_s) },
    { label: L.max_speed_kmh, render: (t) => `${Math.round(t.max_speed_kmh)} km/h` },
    { label: L.avg_speed_kmh, render: (t) => `${Math.round(t.avg_speed_kmh)} km/h` },
  ];
  const stopColumns: ListColumn<Stop & { n: number }>[] = [
    { label: '#', render: (s) => s.n, width: 40 },
    { label: L.stop_start_at, render: (s) => clock(s.start_at, day) },
    { label: L.stop_end_at, render: (s) => clock(s.end_at, day) },
    { label: L.stop_address, render: (s) => placeOf(s.address, s.lat, s.lng) },
    { label: L.stop_duration_s, render: (s) => reportLabels.duration(s.duration_s) },
  ];
  // A failed read is said once, above; the tables keep their last rows.
  const table = { pending: q.isPending && !q.isError, fetching: q.isFetching, empty: T.empty, compact: true };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <DayPicker value={day} onChange={setDay} />
          <DownloadButtons query={{ kind: 'daily', car_data_id: carDataId, date: day }} />
        </Group>
      </Paper>
      {q.isError && (
        <Alert color="red" role="alert">
          {messageOf(q.error, tripMessages.fetchFailed)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label={L.dayTotals}>
        {[
          [L.distance_m, reportLabels.km(totals.distance_m)],
          [L.driving_s, reportLabels.duration(totals.driving_s)],
          [L.stop_count, `${totals.stops}回`],
          [L.max_speed_kmh, `${Math.round(totals.max_speed_kmh)} km/h`],
        ].map(([k, v]) => (
          <Paper key={k} withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {k}
            </Text>
            <Text fw={700} data-testid={`daily-${k}`}>
              {q.isPending ? '—' : v}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {empty && (
        <Alert color="gray" data-testid="daily-empty">
          {T.empty}
        </Alert>
      )}
      <MapHost height={420}>
        <RouteLayer points={points} />
        <StopMarkers stops={marks} />
      </MapHost>
      <Title order={2} size="h5">
        {T.trips}
      </Title>
      <ListTable
        columns={tripColumns}
        rows={trips.map((t, i) => ({ ...t, n: i + 1 }))}
        rowKey={(t) => t.start_at}
        {...table}
      />
      <Title order={2} size="h5">
        {T.stops}
      </Title>
      <ListTable
        columns={stopColumns}
        rows={stops.map((s, i) => ({ ...s, n: i + 1 }))}
        rowKey={(s) => s.start_at}
        {...table}
      />
    </Stack>
  );
}
