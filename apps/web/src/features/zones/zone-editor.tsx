import {
  ZONE_COLOR_DEFAULT,
  errorMessages,
  zoneLabels,
  zoneShapeLabels,
  zoneShapes,
  type Zone,
  type ZoneShape,
} from '@fleet/contract';
import { Alert, Button, ColorInput, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CircleMarker, useMapEvents } from 'react-leaflet';
import { useLeaveGuard } from '../../components/edit-shell/leave-guard';
import { MapHost } from '../../components/map/map-host';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { useSaveZone } from './api';
import { zoneTexts as t } from './texts';
import { ZoneShapeLayer } from './zone-shape-layer';

interface Draft {
  name: string;
  color: string;
  shape: ZoneShape;
  centre: { lat: number; lng: number } | null;
  radius_m: number | null;
  points: { lat: number; lng: number }[];
}

const draftOf = (zone?: Zone): Draft => ({
  name: zone?.name ?? '',
  color: zone?.color ?? ZONE_COLOR_DEFAULT,
  shape: zone?.shape ?? 'circle',
  centre: zone?.lat != null && zone?.lng != null ? { lat: zone.lat, lng: zone.lng } : null,
  radius_m: zone?.radius_m ?? null,
  points: zone?.points ?? [],
});

/**
 * Click-to-place drawing: a circle takes its centre at the first click and its radius from the second
 * (Leaflet's distance; the field below sets it to the metre), a polygon a vertex per click.
 */
function DrawClicks({ draft, onChange }: { draft: Draft; onChange(d: Draft): void }) {
  const map = useMapEvents({
    click(e) {
      const p = { lat: Number(e.latlng.lat.toFixed(6)), lng: Number(e.latlng.lng.toFixed(6)) };
      if (draft.shape === 'polygon') onChange({ ...draft, points: [...draft.points, p] });
      else if (!draft.centre || draft.radius_m !== null) onChange({ ...draft, centre: p, radius_m: null });
      else onChange({ ...draft, radius_m: Math.max(1, Math.round(map.distance(draft.centre, e.latlng))) });
    },
  });
  return null;
}

/** Adds or edits one zone: name, colour, and its shape drawn on the map. */
export function ZoneEditor({ zone, onDone }: { zone?: Zone; onDone(): void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(zone));
  const save = useSaveZone();
  const guard = useLeaveGuard(JSON.stringify(draft) !== JSON.stringify(draftOf(zone)) && !save.isSuccess);
  const fieldErrors = save.error instanceof ApiClientError ? save.error.errors : {};
  const err = (key: string) =>
    Object.entries(fieldErrors).find(([k]) => k === `info.${key}` || k.startsWith(`info.${key}.`))?.[1];
  const submit = () =>
    save.mutate(
      {
        ...(zone ? { zone_id: zone.zone_id } : {}),
        info:
          draft.shape === 'circle'
            ? {
                name: draft.name,
                color: draft.color,
                shape: 'circle',
                lat: draft.centre?.lat,
                lng: draft.centre?.lng,
                radius_m: draft.radius_m ?? undefined,
              }
            : { name: draft.name, color: draft.color, shape: 'polygon', points: draft.points },
      },
      { onSuccess: onDone },
    );
  const preview: Zone | null =
    draft.shape === 'circle' && draft.centre && draft.radius_m
      ? { ...emptyZone, ...draft, lat: draft.centre.lat, lng: draft.centre.lng, points: null }
      : draft.shape === 'polygon' && draft.points.length >= 2
        ? { ...emptyZone, ...draft, lat: null, lng: null, radius_m: null }
        : null;
  const center: [number, number] | undefined = draft.centre
    ? [draft.centre.lat, draft.centre.lng]
    : draft.points[0]
      ? [draft.points[0].lat, draft.points[0].lng]
      : undefined;
  return (
    <Stack gap="sm" data-testid="zone-editor">
      {guard.dialog}
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={zoneLabels.name}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          error={err('name')}
          w={240}
          required
        />
        <ColorInput
          label={zoneLabels.color}
          value={draft.color}
          onChange={(color) => setDraft({ ...draft, color })}
          error={err('color')}
          w={140}
        />
        <SegmentedControl
          aria-label={zoneLabels.shape}
          value={draft.shape}
          onChange={(v) => setDraft({ ...draft, shape: v as ZoneShape })}
          data={zoneShapes.map((s) => ({ value: s, label: zoneShapeLabels[s] }))}
        />
        {draft.shape === 'circle' && (
          <NumberInput
            label={zoneLabels.radius_m}
            value={draft.radius_m ?? ''}
            onChange={(v) => setDraft({ ...draft, radius_m: typeof v === 'number' ? v : null })}
            error={err('radius_m')}
            w={140}
            min={1}
          />
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {draft.shape === 'circle' ? t.drawCircle : t.drawPolygon}
        {draft.shape === 'polygon' && ` ${t.pointsCount(draft.points.length)}`}
      </Text>
      <MapHost height={420} center={center} zoom={center ? 15 : 12}>
        <DrawClicks draft={draft} onChange={setDraft} />
        {preview && <ZoneShapeLayer zone={preview} />}
        {draft.shape === 'circle' && draft.centre && (
          <CircleMarker center={[draft.centre.lat, draft.centre.lng]} radius={4} pathOptions={{ color: draft.color }} />
        )}
        {draft.shape === 'polygon' &&
          draft.points.map((p, i) => (
            <CircleMarker key={i} center={[p.lat, p.lng]} radius={4} pathOptions={{ color: draft.color }} />
          ))}
      </MapHost>
      {(err('points') || err('lat') || err('lng')) && (
        <Text size="sm" c="red" role="alert">
          {err('points') ?? err('lat') ?? err('lng')}
        </Text>
      )}
      {save.isError && !Object.keys(fieldErrors).length && (
        <Alert color="red" role="alert">
          {messageOf(save.error, errorMessages.updateFailed)}
        </Alert>
      )}
      <Group>
        <Button onClick={submit} loading={save.isPending}>
          {t.save}
        </Button>
        {draft.shape === 'polygon' && (
          <Button
            variant="default"
            disabled={!draft.points.length}
            onClick={() => setDraft({ ...draft, points: draft.points.slice(0, -1) })}
          >
            {t.undoPoint}
          </Button>
        )}
        <Button variant="default" onClick={() => setDraft({ ...draft, centre: null, radius_m: null, points: [] })}>
          {t.clearShape}
        </Button>
        <Button variant="subtle" onClick={onDone}>
          {t.cancel}
        </Button>
      </Group>
    </Stack>
  );
}

const emptyZone: Zone = {
  zone_id: '',
  company_id: '',
  name: '',
  shape: 'circle',
  color: ZONE_COLOR_DEFAULT,
  lat: null,
  lng: null,
  radius_m: null,
  points: null,
  car_count: 0,
  updated_at: '',
};
