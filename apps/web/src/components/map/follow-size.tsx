import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * Tells the map when its box changes size (a hidden map shown again, a phone turned): Leaflet measures its
 * container once and would draw tiles for the old size otherwise. A child of MapHost.
 */
export function FollowSize() {
  const map = useMap();
  useEffect(() => {
    const box = map.getContainer();
    const observer = new ResizeObserver(() => {
      if (box.clientWidth > 0 && box.clientHeight > 0) map.invalidateSize();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [map]);
  return null;
}
