/**
 * Grid clustering in screen pixels: points falling in the same `cell`-pixel square at the current
 * zoom become one cluster. O(n) per redraw, no index to keep (10,000 vehicles take a few ms), and
 * the same result for the same view, so clusters do not jump while a live update redraws them.
 */
export interface ScreenPoint<T> {
  x: number;
  y: number;
  item: T;
}
export interface Cluster<T> {
  x: number;
  y: number;
  items: T[];
}

export function clusterPoints<T>(points: readonly ScreenPoint<T>[], cell: number): Cluster<T>[] {
  const cells = new Map<number, { sx: number; sy: number; items: T[] }>();
  for (const p of points) {
    // A number per cell (no string per point): rows of 2^21 cells, far wider than any layer.
    const key = Math.floor(p.y / cell) * 2_097_152 + Math.floor(p.x / cell);
    const c = cells.get(key);
    if (c) {
      c.sx += p.x;
      c.sy += p.y;
      c.items.push(p.item);
    } else cells.set(key, { sx: p.x, sy: p.y, items: [p.item] });
  }
  return [...cells.values()].map((c) => ({ x: c.sx / c.items.length, y: c.sy / c.items.length, items: c.items }));
}
