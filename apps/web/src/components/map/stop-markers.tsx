import { divIcon } from 'leaflet';
import { useMemo } from 'react';
import { Marker, Tooltip } from 'react-leaflet';

export interface StopMark {
  key: string;
  lat: number;
  lng: number;
  /** The tooltip: when and how long. */
  label: string;
  /** Still stopped there: drawn in another colour. */
  current?: boolean;
}

const pin = (n: number, current: boolean) =>
  divIcon({
    className: '',
    iconSize: [24, 24],
    iconAnchor: [12, 12],
    html: `<div style="width:24px;height:24px;border-radius:50%;background:${current ? '#e8590c' : '#7048e8'};border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.5);color:#fff;font:700 12px/20px sans-serif;text-align:center">${n}</div>`,
  });

/** Where a vehicle stopped: numbered pins (the table's order) with their times in a tooltip (the 運行日報's map). */
export function StopMarkers({ stops }: { stops: StopMark[] }) {
  const icons = useMemo(() => stops.map((s, i) => pin(i + 1, !!s.current)), [stops]);
  return (
    <>
      {stops.map((s, i) => (
        <Marker key={s.key} position={[s.lat, s.lng]} icon={icons[i]!} title={s.label}>
          <Tooltip direction="top" offset={[0, -12]}>
            {s.label}
          </Tooltip>
        </Marker>
      ))}
    </>
  );
}
