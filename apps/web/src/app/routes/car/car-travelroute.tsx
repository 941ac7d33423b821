import { errorMessages, telemetryMessages } from '@fleet/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Slider,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { MapHost } from '../../../components/map/map-host';
import { PositionMarker } from '../../../components/map/position-marker';
import { RouteLayer } from '../../../components/map/route-layer';
import { useCarRoute } from '../../../features/car/api';
import { CarScreen } from '../../../features/car/car-header';
import { routeStats } from '../../../features/car/route-stats';
import { carTexts } from '../../../features/car/texts';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime, japanInputValue } from '../../../lib/format';

const T = carTexts.route;

const presets = [
  { value: '1h', label: T.presets.h1, hours: 1 },
  { value: '6h', label: T.presets.h6, hours: 6 },
  { value: '24h', label: T.presets.h24, hours: 24 },
  { value: '7d', label: T.presets.d7, hours: 24 * 7 },
  { value: 'custom', label: T.presets.custom, hours: 0 },
] as const;

function RouteView({ carDataId, label }: { carDataId: string; label: string }) {
  const [preset, setPreset] = useState<string>('1h');
  const [custom, setCustom] = useState({
    from: japanInputValue(new Date(Date.now() - 3600_000)),
    to: japanInputValue(new Date()),
  });
  const [asOf, setAsOf] = useState(() => Date.now());
  const range = useMemo(() => {
    const p = presets.find((x) => x.value === preset)!;
    if (p.value === 'custom') return custom;
    return { from: new Date(asOf - p.hours * 3600_000).toISOString(), to: new Date(asOf).toISOString() };
  }, [preset, custom, asOf]);
  const q = useCarRoute(carDataId, range);
  const points = useMemo(() => q.data?.list ?? [], [q.data]);
  const stats = useMemo(() => routeStats(points), [points]);
  const [cursor, setCursor] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    setCursor(Math.max(0, points.length - 1));
    setPlaying(false);
  }, [points]);
  useEffect(() => {
    if (!playing) return;
    const step = Math.max(1, Math.round(points.length / 300));
    const t = setInterval(
      () => setCursor((c) => (c + step >= points.length - 1 ? (setPlaying(false), points.length - 1) : c + step)),
      50,
    );
    return () => clearInterval(t);
  }, [playing, points.length]);
  const at = points[cursor];

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            value={preset}
            onChange={(v) => {
              setPreset(v);
              setAsOf(Date.now());
            }}
            data={presets.map((p) => ({ value: p.value, label: p.label }))}
          />
          {preset === 'custom' && (
            <>
              <TextInput
                type="datetime-local"
                label={T.from}
                value={custom.from}
                onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
              />
              <TextInput
                type="datetime-local"
                label={T.to}
                value={custom.to}
                onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })}
              />
            </>
          )}
          <Button variant="default" onClick={() => setAsOf(Date.now())} loading={q.isFetching}>
            {T.refresh}
          </Button>
        </Group>
      </Paper>
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
      <MapHost height={460}>
        <RouteLayer points={points} />
        {at && <PositionMarker lat={at.lat} lng={at.lng} label={label} follow={playing} color="#f08c00" />}
      </MapHost>
      {!q.isPending && points.length === 0 && (
        <Text c="dimmed" size="sm">
          {T.empty}
        </Text>
      )}
      {points.length > 1 && (
        <Paper withBorder p="md" radius="md">
          <Group gap="md" wrap="nowrap">
            <ActionIcon
              size="lg"
              radius="xl"
              onClick={() => {
                if (cursor >= points.length - 1) setCursor(0);
                setPlaying(!playing);
              }}
              aria-label={playing ? T.pause : T.play}
            >
              {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
            </ActionIcon>
            <Slider
              style={{ flex: 1 }}
              min={0}
              max={points.length - 1}
              value={cursor}
              onChange={(v) => {
                setPlaying(false);
                setCursor(v);
              }}
              label={(v) => formatDateTime(points[v]?.recorded_at)}
              thumbLabel={T.position}
            />
            <Text size="sm" w={200} ta="right" data-testid="route-cursor">
              {at ? T.cursor(formatDateTime(at.recorded_at), Math.round(at.speed ?? 0)) : ''}
            </Text>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}

/** `/car/car_travelroute/{car_id?}/{car_data_id?}`: the route for a period with playback. */
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
