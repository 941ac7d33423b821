import { describe, expect, it } from 'vitest';
import { SignalledMap } from './signalled-map.js';

describe('SignalledMap', () => {
  const make = (live = { on: true }, maxEntries = 3) =>
    new SignalledMap<string>(() => live.on, { ttlMs: 1000, maxEntries });

  it('serves an entry until its time is up', () => {
    const m = make();
    m.put('a', 'A', m.mark(), 0);
    expect(m.get('a', 999)).toBe('A');
    expect(m.get('a', 1000)).toBeUndefined();
    expect(m.size).toBe(0);
  });

  it('serves nothing and stores nothing while the channel is down', () => {
    const live = { on: true };
    const m = make(live);
    m.put('a', 'A', m.mark(), 0);
    live.on = false;
    expect(m.get('a', 1)).toBeUndefined();
    m.put('b', 'B', m.mark(), 1);
    live.on = true;
    expect(m.get('a', 2)).toBe('A');
    expect(m.get('b', 2)).toBeUndefined();
  });

  it('does not store a value read before an invalidation', () => {
    const m = make();
    for (const invalidate of [() => m.delete('x'), () => m.deleteWhere(() => false), () => m.clear()]) {
      const mark = m.mark();
      invalidate();
      m.put('a', 'A', mark, 0);
      expect(m.get('a', 1)).toBeUndefined();
    }
  });

  it('keeps at most maxEntries, dropping the oldest; deleteWhere forgets by value', () => {
    const m = make();
    for (const k of ['a', 'b', 'c', 'd']) m.put(k, k.toUpperCase(), m.mark(), 0);
    expect(['a', 'b', 'c', 'd'].map((k) => m.get(k, 1))).toEqual([undefined, 'B', 'C', 'D']);
    m.deleteWhere((v) => v === 'C');
    expect(m.get('c', 1)).toBeUndefined();
    m.replace('b', (v) => `${v}!`);
    expect(m.get('b', 1)).toBe('B!');
  });
});
