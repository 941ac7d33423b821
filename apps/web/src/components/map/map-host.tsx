import 'leaflet/dist/leaflet.css';
import { clientConfig, placeMessages } from '@fleet/contract';
import { Box, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { LatLngBoundsExpression, LatLngExpression } from 'leaflet';
import { useState, type ReactNode } from 'react';
import { MapContainer, TileLayer } from 'react-leaflet';
import { callApi } from '../../lib/api-client';
import classes from './map-host.module.css';
import { PlaceSearch } from './place-search';

/** Tokyo Station: where a map with nothing to show yet looks. */
export const DEFAULT_CENTER: LatLngExpression = [35.6812, 139.7671];

/**
 * The one map host (docs/style.md "Maps"): tiles from the server's TILE_URL, a place search box (docs/geocoding.md)
 * and a message when no tile loads; each overlay (position, route, areas) is a child component managing its own layer.
 */
export function MapHost({
  children,
  center = DEFAULT_CENTER,
  zoom = 12,
  bounds,
  height = 420,
}: {
  children?: ReactNode;
  center?: LatLngExpression;
  zoom?: number;
  bounds?: LatLngBoundsExpression;
  height?: number | string;
}) {
  const config = useQuery({
    queryKey: ['client-config'],
    queryFn: () => callApi(clientConfig, {}),
    staleTime: Infinity,
  });
  // Tiles that fail (behind a company proxy, offline) and none that loaded: say so instead of a grey grid.
  const [tiles, setTiles] = useState({ loaded: false, failed: false });
  return (
    <Box h={height} className={classes.host} data-testid="map" pos="relative">
      <MapContainer center={center} zoom={zoom} bounds={bounds} style={{ height: '100%', width: '100%' }} preferCanvas>
        {config.data?.tile_url && (
          <TileLayer
            url={config.data.tile_url}
            attribution={config.data.tile_attribution}
            eventHandlers={{
              tileload: () => setTiles((t) => (t.loaded ? t : { loaded: true, failed: false })),
              tileerror: () => setTiles((t) => (t.failed || t.loaded ? t : { ...t, failed: true })),
            }}
          />
        )}
        <PlaceSearch />
        {children}
      </MapContainer>
      {tiles.failed && (
        <Text size="xs" data-testid="tile-error" className={classes.tileError}>
          {placeMessages.tilesFailed}
        </Text>
      )}
    </Box>
  );
}
