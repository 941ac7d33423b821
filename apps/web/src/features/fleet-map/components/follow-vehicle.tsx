import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Polyline, useMap } from 'react-leaflet';
import { followTrailQuery, TRAIL_MS } from '../api/follow-trail';
import type { FleetItem } from '../fleet-view';

interface TrailPoint {
  lat: number;
  lng: number;
  at: number;
}

/**
 * この車両を追従: keeps the map centred on the followed vehicle as live reports move it (its zoom kept), and
 * draws its trail of the last hour (the hour before following began from the server, then each live position).
 * Dragging the map ends following (onStop): the operator wants to look elsewhere. The container carries
 * `data-follow-center` ("lat,lng" of the last centring) for tests.
 */
export function FollowVehicle({ item, onStop }: { item: FleetItem; onStop(): void }) {
  const map = useMap();
  const carDataId = item.car.car_data_id ?? '';
  const [since] = useState(() => Date.now());
  const history = useQuery({ ...followTrailQuery(carDataId, since), enabled: !!carDataId });
  const [live, setLive] = useState<TrailPoint[]>([]);
  const { lat, lng } = item;

  useEffect(() => {
    if (lat === null || lng === null) return;
    setLive((l) => {
      const last = l[l.length - 1];
      if (last && last.lat === lat && last.lng === lng) return l;
      const cutoff = Date.now() - TRAIL_MS;
      return [...l.filter((p) => p.at >= cutoff), { lat, lng, at: Date.now() }];
    });
    map.panTo([lat, lng], { animate: true });
    map.getContainer().dataset.followCenter = `${lat.toFixed(6)},${lng.toFixed(6)}`;
  }, [lat, lng, map]);

  useEffect(() => {
    map.on('dragstart', onStop);
    return () => {
      map.off('dragstart', onStop);
      delete map.getContainer().dataset.followCenter;
    };
  }, [map, onStop]);

  const trail = useMemo(() => {
    const cutoff = Date.now() - TRAIL_MS;
    const past = (history.data?.list ?? [])
      .filter((p) => Date.parse(p.recorded_at) >= cutoff)
      .map((p) => [p.lat, p.lng] as [number, number]);
    return [...past, ...live.map((p) => [p.lat, p.lng] as [number, number])];
  }, [history.data, live]);

  if (trail.length < 2) return null;
  return <Polyline positions={trail} pathOptions={{ color: '#f08c00', weight: 4, opacity: 0.85, dashArray: '6 6' }} />;
}
