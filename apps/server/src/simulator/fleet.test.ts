import { describe, expect, it, vi } from 'vitest';
import { createFleet } from './fleet.js';
import type { BatchBody, Transport } from './transport.js';

const T0 = Date.parse('2026-01-15T00:00:00Z');
const terminals = [
  { car_device_id: 'D1', password: 'pw-1', car_data_id: '1' },
  { car_device_id: 'D2', password: 'pw-2', car_data_id: '2', region: 'kanagawa' as const },
];
const recorder = () => {
  const sent: [string, BatchBody][] = [];
  const transport: Transport = async (c, batch) => {
    sent.push([c.car_device_id, structuredClone(batch)]);
    return {
      status: 200,
      body: {
        seq: batch.seq,
        accepted: batch.records.length,
        rejected: [],
        duplicate: false,
        commands: [],
        server_time: '',
      },
    };
  };
  return { sent, transport };
};

describe('createFleet', () => {
  it('replays exactly with the same seed and clock', async () => {
    const a = recorder();
    const b = recorder();
    await createFleet({ terminals, transport: a.transport, seed: 9, start: T0 }).run(120);
    await createFleet({ terminals, transport: b.transport, seed: 9, start: T0 }).run(120);
    expect(a.sent.length).toBeGreaterThan(0);
    expect(b.sent).toEqual(a.sent);
  });

  it('flushes every flushInterval simulated seconds and drives Kanagawa cars around Kanagawa', async () => {
    const r = recorder();
    const fleet = createFleet({ terminals, transport: r.transport, seed: 1, start: T0, flushInterval: 10 });
    await fleet.run(60);
    expect(fleet.now).toBe(T0 + 60_000);
    expect(r.sent.filter(([id]) => id === 'D1')).toHaveLength(6);
    const kanagawa = r.sent
      .filter(([id]) => id === 'D2')
      .flatMap(([, b]) => b.records)
      .filter((x) => x.type === 'gps');
    for (const p of kanagawa) if (p.type === 'gps') expect(p.lat).toBeLessThan(35.6);
    expect(fleet.stats()).toMatchObject({ terminals: 2, refused: 0, queued: 0 });
  });

  it('follows a fake clock in real-time mode', async () => {
    const r = recorder();
    let clock = T0;
    const fleet = createFleet({ terminals, transport: r.transport, seed: 1, clock: () => clock });
    vi.useFakeTimers();
    try {
      fleet.start();
      clock += 10_000;
      await vi.advanceTimersByTimeAsync(1000);
      await fleet.stop();
    } finally {
      vi.useRealTimers();
    }
    expect(fleet.now).toBe(T0 + 10_000);
  });
});
