import { useEffect, useMemo } from 'react';
import { CircleMarker, Polyline, Tooltip, useMap } from 'react-leaflet';

/** A travelled route: the line, start (green) and end (red) marked, the map fitted to it once per route. */
export function RouteLayer({ points }: { points: { lat: number; lng: number }[] }) {
  const map = useMap();
  const latlngs = useMemo(() => points.map((p) => [p.lat, p.lng] as [number, number]), [points]);
  useEffect(() => {
    if (latlngs.length > 1) map.fitBounds(latlngs, { padding: [24, 24] });
  }, [latlngs, map]);
  if (latlngs.length === 0) return null;
  const start = latlngs[0]!;
  const end = latlngs[latlngs.length - 1]!;
  return (
    <>
      <Polyline positions={latlngs} pathOptions={{ color: '#1c64d9', weight: 4, opacity: 0.85 }} />
      <CircleMarker
        center={start}
        radius={8}
        pathOptions={{ color: 'white', weight: 2, fillColor: '#2f9e44', fillOpacity: 1 }}
      >
        <Tooltip direction="top" offset={[0, -8]}>
          出発
        </Tooltip>
      </CircleMarker>
      <CircleMarker
        center={end}
        radius={8}
        pathOptions={{ color: 'white', weight: 2, fillColor: '#e03131', fillOpacity: 1 }}
      >
        <Tooltip direction="top" offset={[0, -8]}>
          到着
        </Tooltip>
      </CircleMarker>
    </>
  );
}
