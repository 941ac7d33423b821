import { nightPlaceOf, placeLabels, reportLabels, type FrequentPlace } from '@fleet/contract';
import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { latLngBounds } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { useMap } from 'react-leaflet';
import { MapHost } from '../../components/map/map-host';
import { StopMarkers } from '../../components/map/stop-markers';
import { PLACES_DAYS, useFrequentPlaces } from './api';

/** How many places the card shows. */
const SHOWN = 5;

const where = (p: FrequentPlace) => p.address ?? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)}`;

/** The night place first (where the vehicle sleeps), then the rest by time stopped. */
export function orderPlaces(places: readonly FrequentPlace[]): FrequentPlace[] {
  const night = nightPlaceOf(places);
  return night ? [night, ...places.filter((p) => p !== night)] : [...places];
}

/** Every place in view (with a margin), however far apart. */
function FitPlaces({ places }: { places: readonly FrequentPlace[] }) {
  const map = useMap();
  useEffect(() => {
    if (places.length > 1) map.fitBounds(latLngBounds(places.map((p) => [p.lat, p.lng])).pad(0.2));
  }, [places, map]);
  return null;
}

/**
 * よく停まる場所 of a vehicle's detail: the places it stopped at over the last days, on a map and in a table,
 * the place of its nights (0-5 時) first: where to find it.
 */
export function FrequentPlaces({ carDataId }: { carDataId: string | null }) {
  const query = useFrequentPlaces(carDataId);
  const places = useMemo(() => orderPlaces(query.data?.places ?? []).slice(0, SHOWN), [query.data]);
  const night = nightPlaceOf(query.data?.places ?? []);
  return (
    <Card withBorder radius="md" padding="md" aria-label={placeLabels.frequentPlaces} component="section">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          {placeLabels.frequentPlaces}
        </Title>
        <Text size="xs" c="dimmed">
          {placeLabels.lastDays(PLACES_DAYS)}
        </Text>
      </Group>
      {query.isError && (
        <Text size="sm" c="red" role="alert">
          {placeLabels.noPlaces}
        </Text>
      )}
      {query.isSuccess && places.length === 0 && (
        <Text size="sm" c="dimmed">
          {placeLabels.noPlaces}
        </Text>
      )}
      {places.length > 0 && (
        <Stack gap="xs">
          <MapHost height={220} center={[places[0]!.lat, places[0]!.lng]} zoom={14}>
            <FitPlaces places={places} />
            <StopMarkers
              stops={places.map((p, i) => ({
                key: `${p.lat},${p.lng}`,
                lat: p.lat,
                lng: p.lng,
                label: `${i + 1}. ${where(p)}`,
                current: p === night,
              }))}
            />
          </MapHost>
          <Table striped fz="xs" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>{placeLabels.address}</Table.Th>
                <Table.Th>{placeLabels.visits}</Table.Th>
                <Table.Th>{placeLabels.total_s}</Table.Th>
                <Table.Th>{placeLabels.night_s}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {places.map((p, i) => (
                <Table.Tr key={`${p.lat},${p.lng}`}>
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>
                    {p === night && (
                      <Badge size="xs" color="orange" mr={4}>
                        {placeLabels.nightPlace}
                      </Badge>
                    )}
                    {where(p)}
                  </Table.Td>
                  <Table.Td>{p.visits}</Table.Td>
                  <Table.Td>{reportLabels.duration(p.total_s)}</Table.Td>
                  <Table.Td>{reportLabels.duration(p.night_s)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Card>
  );
}
