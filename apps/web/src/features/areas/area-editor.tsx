import {
  areaKindLabels,
  areaLabels as L,
  areaMessages,
  AreaList,
  fieldErrors,
  type AreaInput,
  type AreaKind,
  type CarDetail,
} from '@fleet/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useMap } from 'react-leaflet';
import { EditableRectangle, type Bounds } from '../../components/map/editable-rectangle';
import { useLeaveGuard } from '../../components/edit-shell/leave-guard';
import { MapHost } from '../../components/map/map-host';
import { PositionMarker } from '../../components/map/position-marker';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { useLatestState } from '../../lib/live-feed';
import { areaListQuery, areaStatusQuery, useSaveAreas } from './api';
import { TemplatePanel } from './template-panel';
import { areaTexts } from './texts';

const T = areaTexts.editor;

type Draft = { name: string } & Bounds;
const colors: Record<AreaKind, string> = { available: '#2f9e44', disable: '#e03131' };

/** Adds new areas where the map is looking. */
function useAddAtCenter(onAdd: (b: Bounds) => void) {
  const map = useMap();
  return () => {
    const c = map.getBounds().pad(-0.35);
    onAdd({ lat_min: c.getSouth(), lat_max: c.getNorth(), lng_min: c.getWest(), lng_max: c.getEast() });
  };
}
function AddButton({ onAdd, disabled }: { onAdd(b: Bounds): void; disabled: boolean }) {
  const add = useAddAtCenter(onAdd);
  return (
    <div className="leaflet-top leaflet-right">
      <div className="leaflet-control">
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={add} disabled={disabled}>
          {T.addAtCenter}
        </Button>
      </div>
    </div>
  );
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Draw, move, resize and delete a vehicle's areas of one kind; numeric bounds editable too. */
export function AreaEditor({ car, kind }: { car: CarDetail; kind: AreaKind }) {
  const q = useQuery(areaListQuery(car.car_id, kind));
  const status = useQuery(areaStatusQuery(car.car_id));
  const save = useSaveAreas(kind);
  const latest = useLatestState(car.car_data_id, car.latest);
  const [draft, setDraft] = useState<Draft[]>([]);
  const [selected, setSelected] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (q.data)
      setDraft(
        q.data.map(({ name, lat_min, lat_max, lng_min, lng_max }) => ({ name, lat_min, lat_max, lng_min, lng_max })),
      );
  }, [q.data]);

  const stored = (q.data ?? []).map(({ name, lat_min, lat_max, lng_min, lng_max }) => ({
    name,
    lat_min,
    lat_max,
    lng_min,
    lng_max,
  }));
  const guard = useLeaveGuard(!!q.data && JSON.stringify(draft) !== JSON.stringify(stored));

  const update = (i: number, patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => d.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  };
  const remove = (i: number) => {
    setSaved(false);
    setDraft((d) => d.filter((_, j) => j !== i));
    setSelected(0);
  };
  const add = (b: Bounds) => {
    setSaved(false);
    setDraft((d) => [
      ...d,
      {
        name: `${areaKindLabels[kind]}${d.length + 1}`,
        lat_min: round6(b.lat_min),
        lat_max: round6(b.lat_max),
        lng_min: round6(b.lng_min),
        lng_max: round6(b.lng_max),
      },
    ]);
    setSelected(draft.length);
  };
  const submit = async () => {
    const parsed = AreaList.safeParse(draft);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    try {
      await save.mutateAsync({ car_id: car.car_id, areas: draft as AreaInput[] });
      setSaved(true);
    } catch (e) {
      if (e instanceof ApiClientError)
        setErrors(
          Object.fromEntries(
            Object.entries(e.errors).map(([k, v]) => [k.replace(/^(available|disable)_areas\./, ''), v]),
          ),
        );
    }
  };

  const pos = latest?.lat != null && latest?.lng != null ? { lat: latest.lat, lng: latest.lng } : null;
  const first = draft[0];
  const center: [number, number] | undefined = pos
    ? [pos.lat, pos.lng]
    : first
      ? [(first.lat_min + first.lat_max) / 2, (first.lng_min + first.lng_max) / 2]
      : undefined;
  const judgement = kind === 'available' ? status.data?.outsideAvailable : status.data?.insideForbidden;
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, areaMessages.fetchFailed)}
      </Alert>
    );
  if (!q.data) return <Skeleton h={480} />;
  return (
    <Stack gap="md">
      {guard.dialog}
      <Group gap="sm">
        <Text size="sm">{T.judgement}</Text>
        {status.data && (kind === 'available' ? status.data.availableCount : status.data.disableCount) === 0 ? (
          <Badge color="gray" variant="light" data-testid="area-judgement">
            {T.noAreas}
          </Badge>
        ) : status.data?.position ? (
          <Badge color={judgement ? 'red' : 'teal'} size="lg" variant="light" data-testid="area-judgement">
            {kind === 'available'
              ? judgement
                ? T.outsideAvailable
                : T.insideAvailable
              : judgement
                ? T.insideForbidden
                : T.outsideForbidden}
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            {T.noPosition}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {T.judgedBySaved}
        </Text>
      </Group>
      <MapHost height={440} center={center} zoom={13}>
        {draft.map((a, i) => (
          <EditableRectangle
            key={i}
            bounds={a}
            color={colors[kind]}
            label={a.name || T.area(i + 1)}
            selected={i === selected}
            onSelect={() => setSelected(i)}
            onChange={(b) => update(i, b)}
          />
        ))}
        {pos && <PositionMarker lat={pos.lat} lng={pos.lng} label={car.car_number} follow={false} />}
        <AddButton onAdd={add} disabled={draft.length >= 50} />
      </MapHost>
      <Text size="xs" c="dimmed">
        {T.howTo}
      </Text>
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h5">
            {T.count(areaKindLabels[kind], draft.length)}
          </Title>
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={submit} loading={save.isPending}>
            {T.save}
          </Button>
        </Group>
        {save.isError && (
          <Alert color="red" mb="sm" role="alert">
            {messageOf(save.error, areaMessages.updateFailed)}
          </Alert>
        )}
        {saved && (
          <Alert color="green" mb="sm" role="status">
            {T.saved(areaKindLabels[kind])}
          </Alert>
        )}
        {errors._ && (
          <Alert color="red" mb="sm">
            {errors._}
          </Alert>
        )}
        <ScrollArea type="auto">
          <Table fz="sm" miw={760}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{L.name}</Table.Th>
                <Table.Th>{L.lat_min}</Table.Th>
                <Table.Th>{L.lat_max}</Table.Th>
                <Table.Th>{L.lng_min}</Table.Th>
                <Table.Th>{L.lng_max}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {draft.map((a, i) => (
                <Table.Tr key={i} bg={i === selected ? 'brand.0' : undefined} onClick={() => setSelected(i)}>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={`${L.name}${i + 1}`}
                      value={a.name}
                      onChange={(e) => update(i, { name: e.currentTarget.value })}
                      error={errors[`${i}.name`]}
                    />
                  </Table.Td>
                  {(['lat_min', 'lat_max', 'lng_min', 'lng_max'] as const).map((k) => (
                    <Table.Td key={k}>
                      <NumberInput
                        size="xs"
                        aria-label={`${L[k]}${i + 1}`}
                        decimalScale={6}
                        step={0.001}
                        value={a[k]}
                        onChange={(v) => update(i, { [k]: v === '' ? Number.NaN : Number(v) })}
                        error={errors[`${i}.${k}`]}
                        hideControls
                      />
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <ActionIcon color="red" variant="subtle" aria-label={T.remove(i + 1)} onClick={() => remove(i)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
              {draft.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" ta="center" py="md" size="sm">
                      {T.empty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Card>
      <TemplatePanel kind={kind} carId={car.car_id} areas={draft} />
    </Stack>
  );
}
