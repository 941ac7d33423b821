import {
  capabilities,
  fleetStateColors,
  fleetStateLabels,
  fleetStates,
  type FleetCar,
  type FleetState,
} from '@fleet/contract';
import { Alert, Box, Button, Chip, Group, Paper, SegmentedControl, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CompanySelect } from '../../../components/company-select';
import { GroupSelect } from '../../../components/group-select';
import { FollowSize } from '../../../components/map/follow-size';
import { MapHost } from '../../../components/map/map-host';
import { PageHeader } from '../../../components/page-header';
import { messageOf } from '../../../lib/api-client';
import { useLiveFeed } from '../../../lib/live-feed';
import { actorOf, useSession } from '../../../lib/session-store';
import { fleetCarsQuery } from '../api/list-fleet-cars';
import { filterItems, type FleetItem } from '../fleet-view';
import { UnplacedNote } from './unplaced-note';
import { fleetMapTexts as T } from '../texts';
import { useFleetItems } from '../use-fleet-items';
import { FitOnce, FleetLayer, FocusOn } from './fleet-layer';
import { FleetList } from './fleet-list';
import { FleetPopup } from './fleet-popup';
import { FollowVehicle } from './follow-vehicle';

const HEIGHT = 'calc(100dvh - 250px)';
const PHONE_MEDIA = '(max-width: 600px)';
/** On a phone the map takes the screen below the filters, never less than 320 px. */
const PHONE_HEIGHT = 'max(320px, calc(100dvh - 300px))';
const noCars: FleetCar[] = [];

/** Ticks once a minute so 通信途絶 follows the clock without new data. */
function useMinute() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

interface FilterBarProps {
  allCompanies: boolean;
  company: string | null;
  onCompany(v: string | null): void;
  group: string | null;
  onGroup(v: string | null): void;
  text: string;
  onText(v: string): void;
  states: FleetState[];
  onStates(v: FleetState[]): void;
  counts: Record<FleetState, number>;
  shown: number;
  all: number;
}

/** The filters and the counts; re-rendered only when one of them changes, not for every push. */
const FilterBar = memo(function FilterBar(p: FilterBarProps) {
  return (
    <Paper withBorder p="sm" radius="md" mb="sm">
      <Group gap="md" align="flex-end" wrap="wrap">
        {p.allCompanies && <CompanySelect value={p.company} onChange={p.onCompany} label={T.company} />}
        <GroupSelect value={p.group} onChange={p.onGroup} companyId={p.company} w={180} />
        <TextInput label={T.search} value={p.text} onChange={(e) => p.onText(e.currentTarget.value)} w={260} />
        <Box>
          <Text size="sm" fw={500} mb={4} id="fleet-states">
            {T.states}
          </Text>
          <Chip.Group multiple value={p.states} onChange={(v) => p.onStates(v as FleetState[])}>
            <Group gap={6} role="group" aria-labelledby="fleet-states">
              {fleetStates.map((s) => (
                <Chip key={s} value={s} size="xs" color={fleetStateColors[s]} variant="outline">
                  {`${fleetStateLabels[s]} ${p.counts[s]}`}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Box>
        <Text size="sm" c="dimmed" ml="auto" data-testid="fleet-count">
          {T.shown(p.shown, p.all)}
        </Text>
      </Group>
    </Paper>
  );
});

const countStates = (items: readonly FleetItem[]) => {
  const c: Record<FleetState, number> = { offline: 0, outside: 0, prohibited: 0, moving: 0, stopped: 0 };
  for (const i of items) if (i.lat !== null) c[i.state] += 1;
  return c;
};

/** The same counts object while no count changed, so the filter bar is not re-rendered for nothing. */
function useStateCounts(items: readonly FleetItem[]) {
  const last = useRef<Record<FleetState, number> | null>(null);
  return useMemo(() => {
    const c = countStates(items);
    if (!last.current || fleetStates.some((s) => last.current![s] !== c[s])) last.current = c;
    return last.current;
  }, [items]);
}

/** `/car/car_map`: every vehicle the user may see, live, filterable, with a list in sync with the map. */
export function FleetMapScreen() {
  const allCompanies = useSession((s) => {
    const actor = actorOf(s);
    return !!actor && capabilities(actor).allCompanies;
  });
  const [company, setCompany] = useState<string | null>(null);
  const [group, setGroup] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text, 200);
  const [states, setStates] = useState<FleetState[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focus, setFocus] = useState<{ lat: number; lng: number; n: number } | null>(null);
  useLiveFeed();
  const now = useMinute();
  const q = useQuery(fleetCarsQuery(allCompanies ? company : null, group));

  const items = useFleetItems(q.data ?? noCars, now);
  const shown = useMemo(() => filterItems(items, { text: search, states }), [items, search, states]);
  const counts = useStateCounts(items);
  const selected = shown.find((i) => i.car.car_id === selectedId) ?? null;
  const pick = useCallback((i: FleetItem) => {
    setSelectedId(i.car.car_id);
    if (i.lat !== null && i.lng !== null) setFocus((f) => ({ lat: i.lat!, lng: i.lng!, n: (f?.n ?? 0) + 1 }));
  }, []);
  const select = useCallback((i: FleetItem) => setSelectedId(i.car.car_id), []);
  // Followed among all the vehicles, not only the filtered ones: a filter never drops the vehicle followed.
  const [followId, setFollowId] = useState<string | null>(null);
  const followed = followId ? (items.find((i) => i.car.car_id === followId && i.lat !== null) ?? null) : null;
  const stopFollow = useCallback(() => setFollowId(null), []);
  // A phone shows the map or the list, not both side by side (the map would be a strip): a toggle above them.
  const phone = useMediaQuery(PHONE_MEDIA, false, { getInitialValueInEffect: false });
  const [view, setView] = useState<'map' | 'list'>('map');
  const pickOnPhone = useCallback(
    (i: FleetItem) => {
      pick(i);
      setView('map');
    },
    [pick],
  );

  return (
    <>
      <PageHeader title={T.title} description={T.description} />
      <FilterBar
        allCompanies={allCompanies}
        company={company}
        onCompany={(v) => {
          setCompany(v);
          setGroup(null);
        }}
        group={group}
        onGroup={setGroup}
        text={text}
        onText={setText}
        states={states}
        onStates={setStates}
        counts={counts}
        shown={shown.length}
        all={items.length}
      />
      {q.isError && (
        <Alert color="red" role="alert" mb="sm">
          {messageOf(q.error, T.fetchFailed)}
        </Alert>
      )}
      {phone && (
        <SegmentedControl
          fullWidth
          mb="xs"
          value={view}
          onChange={(v) => setView(v as 'map' | 'list')}
          data={[
            { value: 'map', label: T.phoneView.map },
            { value: 'list', label: T.phoneView.list(shown.length) },
          ]}
          aria-label={T.phoneView.label}
        />
      )}
      <Group align="stretch" gap="sm" wrap="nowrap">
        <Paper
          withBorder
          radius="md"
          p={6}
          w={phone ? '100%' : 300}
          h={phone ? PHONE_HEIGHT : HEIGHT}
          style={{ flexShrink: 0 }}
          display={phone && view !== 'list' ? 'none' : undefined}
        >
          <FleetList items={shown} activeId={selectedId} onPick={phone ? pickOnPhone : pick} />
        </Paper>
        <Box style={{ flex: 1, minWidth: 0 }} display={phone && view !== 'map' ? 'none' : undefined}>
          <MapHost height={phone ? PHONE_HEIGHT : HEIGHT} zoom={6}>
            <FollowSize />
            <FitOnce items={shown} />
            <FleetLayer items={shown} onSelect={select} />
            <FocusOn target={focus} />
            {selected && (
              <FleetPopup
                item={selected}
                onClose={() => setSelectedId(null)}
                following={selected.car.car_id === followId}
                onFollow={() => setFollowId(selected.car.car_id === followId ? null : selected.car.car_id)}
              />
            )}
            {followed && <FollowVehicle key={followed.car.car_id} item={followed} onStop={stopFollow} />}
          </MapHost>
          {followed && (
            <Group gap="xs" mt={6} wrap="nowrap" data-testid="follow-banner">
              <Text size="sm" style={{ flex: 1, minWidth: 0 }}>
                {T.following(followed.car.car_number || followed.car.car_id)}
              </Text>
              <Button size="xs" variant="default" onClick={stopFollow}>
                {T.unfollow}
              </Button>
            </Group>
          )}
          <UnplacedNote items={items} />
        </Box>
      </Group>
    </>
  );
}
