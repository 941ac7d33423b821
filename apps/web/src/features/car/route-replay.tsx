import { ActionIcon, Group, Paper, SegmentedControl, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { divIcon, type Marker as LeafletMarker } from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Marker, Tooltip, useMap } from 'react-leaflet';
import { formatDateTime } from '../../lib/format';
import { advance, positionAt, replaySpeeds, timesOf, type ReplayAt, type TimedPoint } from './replay';
import { carTexts } from './texts';

const T = carTexts.route;

/**
 * The replay's state: route time, playing, speed. While playing, route time advances each animation frame
 * by the real time elapsed times the speed; it stops at the last point. A new route sets it to its end.
 */
export function useReplay(points: readonly TimedPoint[]) {
  const times = useMemo(() => timesOf(points), [points]);
  const end = times.length ? times[times.length - 1]! : 0;
  const [t, setT] = useState(end);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  useEffect(() => {
    setT(end);
    setPlaying(false);
  }, [times, end]);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const elapsed = now - last;
      last = now;
      setT((x) => advance(times, x, elapsed, speed));
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, times]);
  useEffect(() => {
    if (playing && t >= end) setPlaying(false);
  }, [playing, t, end]);
  const at = useMemo(() => positionAt(points, times, t), [points, times, t]);
  const toggle = () => {
    if (!playing && t >= end) setT(times[0] ?? 0);
    setPlaying(!playing);
  };
  const seek = (index: number) => {
    setPlaying(false);
    setT(times[index] ?? 0);
  };
  return { at, t, playing, toggle, seek, speed, setSpeed };
}

const icon = divIcon({
  className: '',
  iconSize: [20, 20],
  iconAnchor: [10, 10],
  html: '<div style="width:20px;height:20px;border-radius:50%;background:#f08c00;border:3px solid #fff;box-shadow:0 0 4px rgba(0,0,0,.6)"></div>',
});

function mark(marker: LeafletMarker | null, at: ReplayAt) {
  const el = marker?.getElement();
  if (!el) return;
  el.dataset.testid = 'replay-marker';
  el.dataset.at = `${at.lat.toFixed(6)},${at.lng.toFixed(6)}`;
}

/**
 * The moving marker (a DOM marker above the canvas line). While playing, the map pans only when the marker
 * nears the view's edge, not on every frame. Its element carries `data-at` ("lat,lng") for tests.
 */
export function ReplayMarker({ at, label, playing }: { at: ReplayAt; label: string; playing: boolean }) {
  const map = useMap();
  const ref = useRef<LeafletMarker | null>(null);
  useEffect(() => {
    mark(ref.current, at);
    if (playing && !map.getBounds().pad(-0.15).contains([at.lat, at.lng])) map.panTo([at.lat, at.lng]);
  }, [at, playing, map]);
  return (
    <Marker
      ref={ref}
      position={[at.lat, at.lng]}
      icon={icon}
      title={T.replayMarker}
      zIndexOffset={1000}
      keyboard={false}
      interactive={false}
      eventHandlers={{ add: (e) => mark(e.target as LeafletMarker, at) }}
    >
      <Tooltip permanent direction="top" offset={[0, -10]}>
        {label}
      </Tooltip>
    </Marker>
  );
}

/** Play/pause, the speed (1×-60×), the position slider and the time and speed at the marker. */
export function ReplayControls({
  points,
  replay,
}: {
  points: readonly TimedPoint[];
  replay: ReturnType<typeof useReplay>;
}) {
  const { at, playing, toggle, seek, speed, setSpeed } = replay;
  const index = at?.index ?? 0;
  const p = points[index];
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <ActionIcon size="xl" radius="xl" onClick={toggle} aria-label={playing ? T.pause : T.play}>
            {playing ? <IconPlayerPauseFilled size={20} /> : <IconPlayerPlayFilled size={20} />}
          </ActionIcon>
          <SegmentedControl
            aria-label={T.speed}
            value={String(speed)}
            onChange={(v) => setSpeed(Number(v))}
            data={replaySpeeds.map((x) => ({ value: String(x), label: T.speedValue(x) }))}
          />
        </Group>
        <Slider
          min={0}
          max={points.length - 1}
          value={index}
          onChange={seek}
          label={(v) => formatDateTime(points[v]?.recorded_at)}
          thumbLabel={T.position}
        />
        <Text size="sm" data-testid="route-cursor">
          {p ? T.cursor(formatDateTime(p.recorded_at), Math.round(at?.speed ?? 0)) : ''}
        </Text>
      </Stack>
    </Paper>
  );
}
