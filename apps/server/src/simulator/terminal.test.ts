import { describe, expect, it } from 'vitest';
import { tokyoPlaces } from './places.js';
import { createRandom } from './random.js';
import { SimTerminal, defaultTerminalOptions } from './terminal.js';
import type { BatchBody, Transport } from './transport.js';
import { SimVehicle } from './vehicle.js';

const T0 = Date.parse('2026-01-15T00:00:00Z');
const creds = { car_device_id: 'D1', password: 'secret-pw', car_data_id: '358409100000001' };
const ok = (batch: BatchBody, commands: unknown[] = []) => ({
  status: 200,
  body: { seq: batch.seq, accepted: batch.records.length, rejected: [], duplicate: false, commands, server_time: '' },
});
const make = (opts = defaultTerminalOptions) => {
  const random = createRandom(5);
  const t = new SimTerminal(creds, new SimVehicle(tokyoPlaces, random), random, 1000, opts);
  t.boot(T0);
  return t;
};

describe('SimTerminal', () => {
  it('resends the very same batch after a network failure', async () => {
    const t = make();
    const sent: BatchBody[] = [];
    let fail = true;
    const transport: Transport = async (_c, batch) => {
      sent.push(structuredClone(batch));
      if (fail) throw new Error('ECONNRESET');
      return ok(batch);
    };
    await t.flush(transport, T0);
    fail = false;
    t.step(T0 + 1000);
    await t.flush(transport, T0 + 1000);
    await t.flush(transport, T0 + 2000);
    expect(sent[0]).toEqual(sent[1]);
    expect(sent[0]!.seq).toBe(1001);
    expect(sent[2]!.seq).toBe(1002);
    expect(t.stats.retries).toBe(1);
    expect(t.queued).toBe(0);
  });

  it('executes an engine command once and reports its result', async () => {
    const t = make();
    const command = {
      id: 42,
      cmd_idx: 0,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_at: '',
    };
    const sent: BatchBody[] = [];
    const transport: Transport = async (_c, batch) => {
      sent.push(structuredClone(batch));
      const resultSent = batch.records.some((r) => r.type === 'command_result');
      return ok(batch, resultSent || sent.length > 3 ? [] : [command]);
    };
    await t.flush(transport, T0);
    await t.flush(transport, T0 + 5000);
    expect(t.vehicle.engineLine).toBe('disconnected');
    const results = sent.flatMap((b) => b.records).filter((r) => r.type === 'command_result');
    expect(results).toEqual([expect.objectContaining({ command_id: 42, success: true })]);
  });

  it('keeps records while offline and reports the outage when back', async () => {
    const t = make({ ...defaultTerminalOptions, disconnectChance: 1, disconnectSeconds: [10, 10] });
    const sent: BatchBody[] = [];
    const transport: Transport = async (_c, batch) => (sent.push(batch), ok(batch));
    t.step(T0 + 1000);
    expect(t.online).toBe(false);
    await t.flush(transport, T0 + 1000);
    expect(sent).toHaveLength(0);
    for (let s = 2; s <= 11; s++) t.step(T0 + s * 1000);
    expect(t.online).toBe(true);
    await t.flush(transport, T0 + 11_000);
    const states = sent
      .flatMap((b) => b.records)
      .filter((r) => r.type === 'connection')
      .map((r) => (r.type === 'connection' ? r.state : ''));
    expect(states).toEqual(['connected', 'disconnected', 'connected']);
  });

  it('stops for good when the gateway refuses its credentials', async () => {
    const t = make();
    let calls = 0;
    const transport: Transport = async () => (calls++, { status: 401, body: {} });
    await t.flush(transport, T0);
    await t.flush(transport, T0 + 5000);
    expect(t.refused).toBe('HTTP 401');
    expect(calls).toBe(1);
  });
});
