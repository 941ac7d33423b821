import { describe, expect, it } from 'vitest';
import { clusterPoints } from './cluster';

describe('clusterPoints', () => {
  it('groups points of one cell at their centre and keeps lone points alone', () => {
    const out = clusterPoints(
      [
        { x: 10, y: 10, item: 'a' },
        { x: 30, y: 50, item: 'b' },
        { x: 130, y: 10, item: 'c' },
      ],
      60,
    );
    expect(out).toEqual([
      { x: 20, y: 30, items: ['a', 'b'] },
      { x: 130, y: 10, items: ['c'] },
    ]);
  });
  it('puts each of 10,000 points in exactly one cluster', () => {
    const pts = Array.from({ length: 10_000 }, (_, i) => ({ x: (i * 37) % 1366, y: (i * 91) % 768, item: i }));
    const out = clusterPoints(pts, 60);
    expect(out.flatMap((c) => c.items).sort((a, b) => a - b)).toEqual(pts.map((p) => p.item));
  });
});
