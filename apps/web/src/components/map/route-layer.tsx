import type { LatLng } from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { CircleMarker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { formatDateTime } from '../../lib/format';
import { speedRuns } from './speed-bands';

export interface RoutePoint {
  lat: number;
  lng: number;
  recorded_at?: string;
  speed?: number | null;
  /** Where the server knows it already (docs/geocoding.md). */
  address?: string | null;
}

const placeOf = (p: RoutePoint) => p.address ?? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)}`;

/** The route's point nearest the pointer (squared degrees are enough to compare a few thousand). */
function nearest(points: readonly RoutePoint[], at: LatLng): RoutePoint | null {
  let best: RoutePoint | null = null;
  let bestD = Infinity;
  for (const p of points) {
    const d = (p.lat - at.lat) ** 2 + (p.lng - at.lng) ** 2;
    if (d < bestD) [best, bestD] = [p, d];
  }
  return best;
}

/**
 * A travelled route: the line (one colour, or coloured by speed: speed-bands.ts), start (green) and end (red)
 * marked, the map fitted to it once per route; the pointer on the line shows the nearest point's time and address.
 */
export function RouteLayer({ points, bySpeed = false }: { points: RoutePoint[]; bySpeed?: boolean }) {
  const map = useMap();
  const [hover, setHover] = useState<RoutePoint | null>(null);
  const latlngs = useMemo(() => points.map((p) => [p.lat, p.lng] as [number, number]), [points]);
  const runs = useMemo(
    () => (bySpeed ? speedRuns(points) : [{ color: '#1c64d9', positions: latlngs }]),
    [bySpeed, points, latlngs],
  );
  useEffect(() => {
    if (latlngs.length > 1) map.fitBounds(latlngs, { padding: [24, 24] });
  }, [latlngs, map]);
  if (latlngs.length === 0) return null;
  const start = points[0]!;
  const end = points[points.length - 1]!;
  return (
    <>
      {runs.map((run, i) => (
        <Polyline
          key={i}
          positions={run.positions}
          pathOptions={{ color: run.color, weight: 4, opacity: 0.9 }}
          eventHandlers={{
            mousemove: (e) => setHover(nearest(points, e.latlng)),
            mouseout: () => setHover(null),
          }}
        />
      ))}
      <CircleMarker
        center={[start.lat, start.lng]}
        radius={8}
        pathOptions={{ color: 'white', weight: 2, fillColor: '#2f9e44', fillOpacity: 1 }}
      >
        <Tooltip direction="top" offset={[0, -8]}>
          出発 {placeOf(start)}
        </Tooltip>
      </CircleMarker>
      <CircleMarker
        center={[end.lat, end.lng]}
        radius={8}
        pathOptions={{ color: 'white', weight: 2, fillColor: '#e03131', fillOpacity: 1 }}
      >
        <Tooltip direction="top" offset={[0, -8]}>
          到着 {placeOf(end)}
        </Tooltip>
      </CircleMarker>
      {hover && (
        <CircleMarker
          center={[hover.lat, hover.lng]}
          radius={5}
          pathOptions={{ color: 'white', weight: 2, fillColor: '#1c64d9', fillOpacity: 1 }}
        >
          <Tooltip permanent direction="top" offset={[0, -6]}>
            {hover.recorded_at ? `${formatDateTime(hover.recorded_at)} ` : ''}
            {placeOf(hover)}
          </Tooltip>
        </CircleMarker>
      )}
    </>
  );
}
