import { CircleMarker, Tooltip, useMap } from 'react-leaflet';
import { useEffect } from 'react';

/** The vehicle's current position; the map follows it when `follow` is set. */
export function PositionMarker({
  lat,
  lng,
  label,
  follow = true,
  color = '#1c64d9',
}: {
  lat: number;
  lng: number;
  label?: string;
  follow?: boolean;
  color?: string;
}) {
  const map = useMap();
  useEffect(() => {
    if (follow) map.panTo([lat, lng], { animate: true });
  }, [lat, lng, follow, map]);
  return (
    <CircleMarker
      center={[lat, lng]}
      radius={9}
      pathOptions={{ color: 'white', weight: 3, fillColor: color, fillOpacity: 1 }}
    >
      {label && (
        <Tooltip permanent direction="top" offset={[0, -10]}>
          {label}
        </Tooltip>
      )}
    </CircleMarker>
  );
}
