import type { Zone } from '@fleet/contract';
import { Circle, Polygon, Tooltip } from 'react-leaflet';

/** A zone on the map: its circle or polygon in its colour, named on hover. */
export function ZoneShapeLayer({
  zone,
}: {
  zone: Pick<Zone, 'name' | 'shape' | 'color' | 'lat' | 'lng' | 'radius_m' | 'points'>;
}) {
  const style = { color: zone.color, weight: 2, fillOpacity: 0.15 };
  if (zone.shape === 'circle' && zone.lat !== null && zone.lng !== null && zone.radius_m !== null)
    return (
      <Circle center={[zone.lat, zone.lng]} radius={zone.radius_m} pathOptions={style}>
        <Tooltip>{zone.name}</Tooltip>
      </Circle>
    );
  if (zone.points?.length)
    return (
      <Polygon positions={zone.points.map((p) => [p.lat, p.lng] as [number, number])} pathOptions={style}>
        <Tooltip>{zone.name}</Tooltip>
      </Polygon>
    );
  return null;
}
