import { capabilities, fleetStateColors, fleetStateLabels, fleetStates, type FleetState } from '@fleet/contract';
import { Alert, Box, Chip, Group, Paper, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { CompanySelect } from '../../../components/company-select';
import { MapHost } from '../../../components/map/map-host';
import { PageHeader } from '../../../components/page-header';
import { messageOf } from '../../../lib/api-client';
import { useLiveFeed, useLiveStore } from '../../../lib/live-feed';
import { actorOf, useSession } from '../../../lib/session-store';
import { fleetCarsQuery } from '../api/list-fleet-cars';
import { filterItems, toItems, type FleetItem } from '../fleet-view';
import { fleetMapTexts as T } from '../texts';
import { FitOnce, FleetLayer, FocusOn } from './fleet-layer';
import { FleetList } from './fleet-list';
import { FleetPopup } from './fleet-popup';

const HEIGHT = 'calc(100dvh - 250px)';

/** Ticks once a minute so 通信途絶 follows the clock without new data. */
function useMinute() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** `/car/car_map`: every vehicle the user may see, live, filterable, with a list in sync with the map. */
export function FleetMapScreen() {
  const allCompanies = useSession((s) => {
    const actor = actorOf(s);
    return !!actor && capabilities(actor).allCompanies;
  });
  const [company, setCompany] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text, 200);
  const [states, setStates] = useState<FleetState[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; n: number } | null>(null);
  useLiveFeed();
  const pushed = useLiveStore((s) => s.states);
  const now = useMinute();
  const q = useQuery(fleetCarsQuery(allCompanies ? company : null));

  const items = useMemo(() => toItems(q.data ?? [], pushed, now), [q.data, pushed, now]);
  const shown = useMemo(() => filterItems(items, { text: search, states }), [items, search, states]);
  const counts = useMemo(() => {
    const c = Object.fromEntries(fleetStates.map((s) => [s, 0])) as Record<FleetState, number>;
    for (const i of items) if (i.lat !== null) c[i.state] += 1;
    return c;
  }, [items]);
  const selected = shown.find((i) => i.car.car_id === selectedId) ?? null;
  const withoutPosition = items.filter((i) => i.lat === null).length;
  const pick = (i: FleetItem) => {
    setSelectedId(i.car.car_id);
    if (i.lat !== null && i.lng !== null) setFocus((f) => ({ lat: i.lat!, lng: i.lng!, n: (f?.n ?? 0) + 1 }));
  };

  return (
    <>
      <PageHeader title={T.title} description={T.description} />
      <Paper withBorder p="sm" radius="md" mb="sm">
        <Group gap="md" align="flex-end" wrap="wrap">
          {allCompanies && <CompanySelect value={company} onChange={setCompany} label={T.company} />}
          <TextInput label={T.search} value={text} onChange={(e) => setText(e.currentTarget.value)} w={260} />
          <Box>
            <Text size="sm" fw={500} mb={4} id="fleet-states">
              {T.states}
            </Text>
            <Chip.Group multiple value={states} onChange={(v) => setStates(v as FleetState[])}>
              <Group gap={6} role="group" aria-labelledby="fleet-states">
                {fleetStates.map((s) => (
                  <Chip key={s} value={s} size="xs" color={fleetStateColors[s]} variant="outline">
                    {`${fleetStateLabels[s]} ${counts[s]}`}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Box>
          <Text size="sm" c="dimmed" ml="auto" data-testid="fleet-count">
            {T.shown(shown.length, items.length)}
          </Text>
        </Group>
      </Paper>
      {q.isError && (
        <Alert color="red" role="alert" mb="sm">
          {messageOf(q.error, T.fetchFailed)}
        </Alert>
      )}
      <Group align="stretch" gap="sm" wrap="nowrap">
        <Paper withBorder radius="md" p={6} w={300} h={HEIGHT} style={{ flexShrink: 0 }}>
          <FleetList items={shown} activeId={selectedId} onPick={pick} />
        </Paper>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <MapHost height={HEIGHT} zoom={6}>
            <FitOnce items={shown} />
            <FleetLayer items={shown} onSelect={(i) => setSelectedId(i.car.car_id)} />
            <FocusOn target={focus} />
            {selected && <FleetPopup item={selected} onClose={() => setSelectedId(null)} />}
          </MapHost>
          {withoutPosition > 0 && (
            <Text size="xs" c="dimmed" mt={4}>
              {T.noPosition(withoutPosition)}
            </Text>
          )}
        </Box>
      </Group>
    </>
  );
}
