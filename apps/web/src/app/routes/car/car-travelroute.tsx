import { errorMessages, parseDateBound, telemetryMessages } from '@fleet/contract';
import { Alert, Button, Chip, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { DateTimeField } from '../../../components/date-fields';
import { FollowSize } from '../../../components/map/follow-size';
import { MapHost } from '../../../components/map/map-host';
import { RouteLayer } from '../../../components/map/route-layer';
import { SpeedLegend } from '../../../components/map/speed-legend';
import { StopMarkers, type StopMark } from '../../../components/map/stop-markers';
import { useCarRoute, useCarRouteTrips } from '../../../features/car/api';
import { CarScreen } from '../../../features/car/car-header';
import { presetRange, routePresets, type RoutePreset } from '../../../features/car/route-range';
import { ReplayControls, ReplayMarker, useReplay } from '../../../features/car/route-replay';
import { routeStats } from '../../../features/car/route-stats';
import { carTexts } from '../../../features/car/texts';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime, japanInputValue } from '../../../lib/format';

const T = carTexts.route;
/** car_trips answers at most 31 days; a longer custom period shows the route without its stops. */
const TRIPS_MAX_MS = 31 * 86_400_000;

function tripsAllowed(range: { from: string; to: string }) {
  const from = parseDateBound(range.from, 'from');
  const to = parseDateBound(range.to, 'to');
  return !!from && !!to && Date.parse(to) > Date.parse(from) && Date.parse(to) - Date.parse(from) <= TRIPS_MAX_MS;
}

function RangeBar(p: {
  preset: RoutePreset;
  onPreset(v: RoutePreset): void;
  custom: { from: string; to: string };
  onCustom(v: { from: string; to: string }): void;
  onRefresh(): void;
  fetching: boolean;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Chip.Group value={p.preset} onChange={(v) => p.onPreset(v as RoutePreset)}>
          <Group gap={6} wrap="wrap" role="radiogroup" aria-label={T.presetLabel}>
            {routePresets.map((v) => (
              <Chip key={v} value={v} size="sm">
                {T.presets[v]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          {p.preset === 'custom' && (
            <>
              <DateTimeField
                label={T.from}
                value={p.custom.from}
                onChange={(from) => p.onCustom({ ...p.custom, from })}
              />
              <DateTimeField label={T.to} value={p.custom.to} onChange={(to) => p.onCustom({ ...p.custom, to })} />
            </>
          )}
          <Button variant="default" onClick={p.onRefresh} loading={p.fetching}>
            {T.refresh}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RouteView({ carDataId, label }: { carDataId: string; label: string }) {
  const [preset, setPreset] = useState<RoutePreset>('1h');
  const [custom, setCustom] = useState({
    from: japanInputValue(new Date(Date.now() - 3600_000)),
    to: japanInputValue(new Date()),
  });
  const [asOf, setAsOf] = useState(() => Date.now());
  const range = useMemo(() => presetRange(preset, asOf, custom), [preset, custom, asOf]);
  const q = useCarRoute(carDataId, range);
  const trips = useCarRouteTrips(carDataId, range, tripsAllowed(range));
  const points = useMemo(() => q.data?.list ?? [], [q.data]);
  const stats = useMemo(() => routeStats(points), [points]);
  const replay = useReplay(points);
  const marks = useMemo<StopMark[]>(
    () =>
      (trips.data?.stops ?? []).map((s, i) => ({
        key: s.start_at,
        lat: s.lat,
        lng: s.lng,
        current: s.end_at === null,
        label: T.stopLabel(
          i + 1,
          formatDateTime(s.start_at),
          s.end_at ? formatDateTime(s.end_at) : T.stillStopped,
          Math.round(s.duration_s / 60),
        ),
      })),
    [trips.data],
  );
  // The line and the pins do not change while the marker moves: the same elements, no re-render each frame.
  const line = useMemo(() => <RouteLayer points={points} bySpeed />, [points]);
  const pins = useMemo(() => <StopMarkers stops={marks} />, [marks]);

  return (
    <Stack gap="md">
      <RangeBar
        preset={preset}
        onPreset={(v) => {
          setPreset(v);
          setAsOf(Date.now());
        }}
        custom={custom}
        onCustom={setCustom}
        onRefresh={() => setAsOf(Date.now())}
        fetching={q.isFetching}
      />
      {q.isError && (
        <Alert color="red" role="alert">
          {messageOf(
            q.error,
            q.error && (q.error as { status?: number }).status === 401
              ? errorMessages.fetchFailed
              : telemetryMessages.logFetchFailed,
          )}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {[
          [T.distance, `${stats.km.toFixed(1)} km`],
          [T.duration, T.durationValue(stats.minutes)],
          [T.topSpeed, `${Math.round(stats.top)} km/h`],
          [
            T.points,
            q.data
              ? `${points.length.toLocaleString('ja-JP')}${q.data.simplified ? ` / ${q.data.total.toLocaleString('ja-JP')}` : ''}`
              : '—',
          ],
        ].map(([k, v]) => (
          <Paper key={k} withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {k}
            </Text>
            <Text fw={700} data-testid={`route-${k}`}>
              {v}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <MapHost height="clamp(320px, 60dvh, 460px)">
        <FollowSize />
        {line}
        {pins}
        {replay.at && <ReplayMarker at={replay.at} label={label} playing={replay.playing} />}
      </MapHost>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SpeedLegend title={T.legend} unknown={T.unknownSpeed} />
        {trips.isSuccess && (
          <Text size="xs" c="dimmed" data-testid="route-stops">
            {T.stops(marks.length)}
          </Text>
        )}
        {trips.isError && (
          <Text size="xs" c="red">
            {T.stopsFailed}
          </Text>
        )}
      </Group>
      {!q.isPending && points.length === 0 && (
        <Text c="dimmed" size="sm">
          {T.empty}
        </Text>
      )}
      {points.length > 1 && <ReplayControls points={points} replay={replay} />}
    </Stack>
  );
}

/** `/car/car_travelroute/{car_id?}/{car_data_id?}`: the route for a period, coloured by speed, with stops and replay. */
export function Component() {
  return (
    <CarScreen title={T.title}>
      {(car) =>
        car.car_data_id ? (
          <RouteView carDataId={car.car_data_id} label={car.car_number} />
        ) : (
          <Alert color="yellow">{T.noTerminal}</Alert>
        )
      }
    </CarScreen>
  );
}
