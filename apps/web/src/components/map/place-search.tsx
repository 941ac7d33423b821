import { placeLabels, placeMessages, placeSearch, type Place } from '@fleet/contract';
import { ActionIcon, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { DomEvent } from 'leaflet';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CircleMarker, Tooltip, useMap } from 'react-leaflet';
import { callApi, messageOf } from '../../lib/api-client';

/** Zoom a found place is shown at: a few blocks around it. */
const PLACE_ZOOM = 16;

/**
 * The search box of every map (place_search, docs/geocoding.md): a place name or address moves the map
 * there; several answers are listed to choose from. Clicks and scrolls on it stay off the map.
 */
export function PlaceSearch() {
  const map = useMap();
  const box = useRef<HTMLDivElement>(null);
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Place[] | null>(null);
  const [picked, setPicked] = useState<Place | null>(null);
  const search = useMutation({ mutationFn: (words: string) => callApi(placeSearch, { q: words }) });
  useEffect(() => {
    if (!box.current) return;
    DomEvent.disableClickPropagation(box.current);
    DomEvent.disableScrollPropagation(box.current);
  }, []);
  const go = (p: Place) => {
    map.setView([p.lat, p.lng], PLACE_ZOOM);
    setPicked(p);
    setFound(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!q.trim()) return;
    search.mutate(q.trim(), {
      onSuccess: ({ places }) => {
        if (places.length === 1) go(places[0]!);
        else {
          if (places[0]) map.setView([places[0].lat, places[0].lng], PLACE_ZOOM);
          setFound(places);
        }
      },
    });
  };
  return (
    <>
      {picked && (
        <CircleMarker
          center={[picked.lat, picked.lng]}
          radius={7}
          pathOptions={{ color: 'white', weight: 2, fillColor: '#f08c00', fillOpacity: 1 }}
        >
          <Tooltip permanent direction="top" offset={[0, -8]} className="place-search-found">
            {picked.name}
          </Tooltip>
        </CircleMarker>
      )}
      <div className="leaflet-top leaflet-right">
        <div className="leaflet-control" ref={box}>
          <Paper shadow="sm" p={4} radius="sm" w={240}>
            <form onSubmit={submit} role="search">
              <TextInput
                size="xs"
                aria-label={placeLabels.search}
                placeholder={placeLabels.search}
                value={q}
                onChange={(e) => setQ(e.currentTarget.value)}
                rightSection={
                  <ActionIcon
                    type="submit"
                    size="sm"
                    variant="subtle"
                    aria-label={placeLabels.searchButton}
                    loading={search.isPending}
                  >
                    <IconSearch size={14} />
                  </ActionIcon>
                }
              />
            </form>
            {search.isError && (
              <Text size="xs" c="red" role="alert" mt={4}>
                {messageOf(search.error, placeMessages.searchFailed)}
              </Text>
            )}
            {found && found.length === 0 && (
              <Text size="xs" c="dimmed" mt={4} role="status">
                {placeMessages.noResults}
              </Text>
            )}
            {found && found.length > 1 && (
              <Stack gap={0} mt={4} mah={180} style={{ overflowY: 'auto' }} aria-label={placeLabels.search}>
                {found.map((p) => (
                  <UnstyledButton key={`${p.name}-${p.lat}-${p.lng}`} onClick={() => go(p)} px={4} py={2}>
                    <Text size="xs">{p.name}</Text>
                  </UnstyledButton>
                ))}
              </Stack>
            )}
          </Paper>
        </div>
      </div>
    </>
  );
}
