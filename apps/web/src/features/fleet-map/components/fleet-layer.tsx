import { fleetStateColors } from '@fleet/contract';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { clusterPoints } from '../cluster';
import type { FleetItem } from '../fleet-view';
import classes from './fleet-map.module.css';

/** From this zoom on every vehicle is its own marker; below it, vehicles closer than CELL px cluster. */
const SINGLE_ZOOM = 14;
const CELL = 56;

/**
 * The fleet overlay: lone vehicles as circle markers on one canvas (thousands cost one element),
 * clusters as a few DOM badges with their count. Only what lies in the view (plus a margin) is drawn,
 * again after every move, zoom or data change. The map container carries `data-vehicles` (vehicles
 * drawn, clustered or not) and `data-draws`, so tests and the bench can tell a draw happened.
 */
export function FleetLayer({ items, onSelect }: { items: readonly FleetItem[]; onSelect(item: FleetItem): void }) {
  const map = useMap();
  const select = useRef(onSelect);
  select.current = onSelect;
  const group = useRef<L.LayerGroup | null>(null);
  const renderer = useRef<L.Canvas | null>(null);

  useEffect(() => {
    renderer.current = L.canvas({ padding: 0.2 });
    group.current = L.layerGroup().addTo(map);
    return () => {
      group.current?.remove();
      group.current = null;
    };
  }, [map]);

  useEffect(() => {
    const draw = () => {
      const layer = group.current;
      if (!layer) return;
      const started = performance.now();
      layer.clearLayers();
      // The view's edges as numbers: no LatLng per vehicle for the ones outside it.
      const view = map.getBounds().pad(0.2);
      const [south, north, west, east] = [view.getSouth(), view.getNorth(), view.getWest(), view.getEast()];
      const points = [];
      for (const item of items) {
        const { lat, lng } = item;
        if (lat === null || lng === null || lat < south || lat > north || lng < west || lng > east) continue;
        const p = map.latLngToLayerPoint([lat, lng]);
        points.push({ x: p.x, y: p.y, item });
      }
      const groups =
        map.getZoom() >= SINGLE_ZOOM
          ? points.map((p) => ({ x: p.x, y: p.y, items: [p.item] }))
          : clusterPoints(points, CELL);
      for (const g of groups) {
        const at = map.layerPointToLatLng([g.x, g.y]);
        if (g.items.length === 1) {
          const item = g.items[0]!;
          L.circleMarker(at, {
            renderer: renderer.current!,
            radius: 7,
            color: '#fff',
            weight: 2,
            fillColor: fleetStateColors[item.state],
            fillOpacity: 1,
          })
            .on('click', () => select.current(item))
            .addTo(layer);
        } else {
          const size = g.items.length < 100 ? 34 : g.items.length < 1000 ? 42 : 50;
          L.marker(at, {
            icon: L.divIcon({
              className: classes.cluster,
              html: `<span>${g.items.length}</span>`,
              iconSize: [size, size],
            }),
            keyboard: false,
          })
            .on('click', () => map.setView(at, Math.min(map.getZoom() + 2, SINGLE_ZOOM)))
            .addTo(layer);
        }
      }
      const box = map.getContainer();
      box.dataset.vehicles = String(points.length);
      box.dataset.draws = String(Number(box.dataset.draws ?? 0) + 1);
      box.dataset.drawMs = (performance.now() - started).toFixed(1);
    };
    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
    };
  }, [map, items]);

  return null;
}

/** Centres the map on the vehicle picked in the list (each pick, even the same vehicle again). */
export function FocusOn({ target }: { target: { lat: number; lng: number; n: number } | null }) {
  const map = useMap();
  useEffect(() => {
    if (target) map.setView([target.lat, target.lng], Math.max(map.getZoom(), SINGLE_ZOOM));
  }, [map, target]);
  return null;
}

/**
 * Fits the view to the vehicles once, when they first arrive: at once, without the zoom animation, so the
 * layer's first draw (its effect runs after this one) is already of the fitted view, and no second draw,
 * animation frames and tile loads follow it.
 */
export function FitOnce({ items }: { items: readonly FleetItem[] }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || items.length === 0) return;
    done.current = true;
    const bounds = L.latLngBounds(
      items.flatMap((i) => (i.lat !== null && i.lng !== null ? [[i.lat, i.lng] as [number, number]] : [])),
    );
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15, animate: false });
  }, [map, items]);
  return null;
}
