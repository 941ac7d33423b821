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
  it('handles 10,000 points quickly', () => {
    const pts = Array.from({ length: 10_000 }, (_, i) => ({ x: (i * 37) % 1366, y: (i * 91) % 768, item: i }));
    const t = performance.now();
    const out = clusterPoints(pts, 60);
    expect(performance.now() - t).toBeLessThan(100);
    expect(out.reduce((n, c) => n + c.items.length, 0)).toBe(10_000);
  });
});
