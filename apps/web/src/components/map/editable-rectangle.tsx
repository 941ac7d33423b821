import L from 'leaflet';
import { useMemo } from 'react';
import { Marker, Rectangle, Tooltip } from 'react-leaflet';

export interface Bounds {
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
}

const handle = (cursor: string, color: string) =>
  L.divIcon({
    className: '',
    iconSize: [14, 14],
    html: `<div style="width:14px;height:14px;border-radius:3px;background:white;border:2px solid ${color};cursor:${cursor}"></div>`,
  });
const mover = (color: string) =>
  L.divIcon({
    className: '',
    iconSize: [22, 22],
    html: `<div title="移動" style="width:22px;height:22px;border-radius:50%;background:${color};border:2px solid white;box-shadow:0 1px 4px #0004;cursor:move"></div>`,
  });

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * A rectangle area on the map: drag a corner to resize, the centre to move.
 * Only the selected one shows its handles.
 */
export function EditableRectangle({
  bounds,
  color,
  label,
  selected,
  onSelect,
  onChange,
}: {
  bounds: Bounds;
  color: string;
  label: string;
  selected: boolean;
  onSelect(): void;
  onChange(b: Bounds): void;
}) {
  const icons = useMemo(() => ({ corner: handle('nwse-resize', color), move: mover(color) }), [color]);
  const { lat_min, lat_max, lng_min, lng_max } = bounds;
  const corners = [
    { key: 'sw', lat: lat_min, lng: lng_min },
    { key: 'ne', lat: lat_max, lng: lng_max },
    { key: 'nw', lat: lat_max, lng: lng_min },
    { key: 'se', lat: lat_min, lng: lng_max },
  ] as const;
  const resize = (key: (typeof corners)[number]['key'], p: L.LatLng) => {
    const lat = key === 'sw' || key === 'se' ? { lat_min: p.lat, lat_max } : { lat_min, lat_max: p.lat };
    const lng = key === 'sw' || key === 'nw' ? { lng_min: p.lng, lng_max } : { lng_min, lng_max: p.lng };
    const b = { ...lat, ...lng };
    onChange({
      lat_min: round(Math.min(b.lat_min, b.lat_max)),
      lat_max: round(Math.max(b.lat_min, b.lat_max)),
      lng_min: round(Math.min(b.lng_min, b.lng_max)),
      lng_max: round(Math.max(b.lng_min, b.lng_max)),
    });
  };
  const move = (p: L.LatLng) => {
    const dLat = p.lat - (lat_min + lat_max) / 2;
    const dLng = p.lng - (lng_min + lng_max) / 2;
    onChange({
      lat_min: round(lat_min + dLat),
      lat_max: round(lat_max + dLat),
      lng_min: round(lng_min + dLng),
      lng_max: round(lng_max + dLng),
    });
  };
  return (
    <>
      <Rectangle
        bounds={[
          [lat_min, lng_min],
          [lat_max, lng_max],
        ]}
        pathOptions={{
          color,
          weight: selected ? 3 : 2,
          fillOpacity: selected ? 0.25 : 0.12,
          dashArray: selected ? undefined : '6 4',
        }}
        eventHandlers={{ click: onSelect }}
      >
        <Tooltip sticky>{label}</Tooltip>
      </Rectangle>
      {selected &&
        corners.map((c) => (
          <Marker
            key={c.key}
            position={[c.lat, c.lng]}
            icon={icons.corner}
            draggable
            eventHandlers={{ dragend: (e) => resize(c.key, (e.target as L.Marker).getLatLng()) }}
          />
        ))}
      {selected && (
        <Marker
          position={[(lat_min + lat_max) / 2, (lng_min + lng_max) / 2]}
          icon={icons.move}
          draggable
          eventHandlers={{ dragend: (e) => move((e.target as L.Marker).getLatLng()) }}
        />
      )}
    </>
  );
}
