import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { restBetweenReads } from './rest-between-reads.js';

/** Whether `p` has settled once the microtasks and immediates queued so far have run. */
async function settled(p: Promise<void>) {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('restBetweenReads: the rest of a heavy read between two of its reads', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('on PGlite rests as long as the read took, whatever its length: other calls get half of the process', async () => {
    for (const readMs of [6, 40, 300]) {
      const rest = restBetweenReads(true, readMs);
      expect(await settled(rest)).toBe(false);
      await vi.advanceTimersByTimeAsync(readMs - 1);
      expect(await settled(rest)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settled(rest)).toBe(true);
    }
  });

  it('after a read too short to time, a few milliseconds; on PostgreSQL a turn of the event loop', async () => {
    const rest = restBetweenReads(true);
    expect(await settled(rest)).toBe(false);
    await vi.advanceTimersByTimeAsync(4);
    expect(await settled(rest)).toBe(true);
    expect(await settled(restBetweenReads(false, 300))).toBe(true);
  });
});
