import type { DeviceBatchResponse, DeviceCommand, DeviceRecordInput } from '@fleet/contract';
import type { Random } from './random.js';
import type { BatchBody, TerminalCredentials, Transport } from './transport.js';
import type { SimVehicle } from './vehicle.js';

export interface TerminalOptions {
  /** Chance per second that the terminal loses its mobile connection. */
  disconnectChance: number;
  disconnectSeconds: readonly [number, number];
  batchMax: number;
}
export const defaultTerminalOptions: TerminalOptions = {
  disconnectChance: 1 / 7200,
  disconnectSeconds: [30, 180],
  batchMax: 500,
};

export interface TerminalStats {
  batches: number;
  accepted: number;
  rejected: number;
  retries: number;
  commands: number;
}

/**
 * The terminal in a simulated car: queues what its vehicle reports, goes
 * offline now and then (keeping its records), sends batches with a sequence
 * number and resends the very same batch after a network failure, and
 * executes the commands the gateway hands it.
 */
export class SimTerminal {
  readonly stats: TerminalStats = { batches: 0, accepted: 0, rejected: 0, retries: 0, commands: 0 };
  /** Why the gateway refused this terminal for good (401/403), if it did. */
  refused: string | null = null;
  online = true;
  private queue: DeviceRecordInput[] = [];
  private pending: BatchBody | null = null;
  private offlineLeft = 0;
  private executed = new Set<number>();

  constructor(
    readonly creds: TerminalCredentials,
    readonly vehicle: SimVehicle,
    private readonly random: Random,
    /** Terminals keep counting across restarts; the start time in ms is a number no earlier run reached. */
    private seq: number,
    private readonly opts: TerminalOptions = defaultTerminalOptions,
  ) {}

  get queued() {
    return this.queue.length + (this.pending?.records.length ?? 0);
  }

  boot(now: number) {
    this.queue.push(...this.vehicle.boot(now));
  }

  step(now: number) {
    const time = new Date(now).toISOString();
    if (this.online && this.random.chance(this.opts.disconnectChance)) {
      this.online = false;
      this.offlineLeft = this.random.int(this.opts.disconnectSeconds[0], this.opts.disconnectSeconds[1]);
      this.queue.push({ type: 'connection', time, state: 'disconnected' });
    } else if (!this.online && --this.offlineLeft <= 0) {
      this.online = true;
      this.queue.push({ type: 'connection', time, state: 'connected' });
    }
    this.queue.push(...this.vehicle.step(now));
  }

  /** Sends everything queued (while online); stops at the first failure and keeps that batch for the retry. */
  async flush(transport: Transport, now: number): Promise<void> {
    for (let round = 0; round < 20 && !this.refused && this.online; round++) {
      if (!this.pending) {
        if (this.queue.length === 0 && round > 0) return;
        this.pending = { seq: ++this.seq, records: this.queue.splice(0, this.opts.batchMax) };
      }
      let reply;
      try {
        reply = await transport(this.creds, this.pending);
      } catch {
        this.stats.retries++;
        return;
      }
      if (reply.status === 401 || reply.status === 403) {
        this.refused = `HTTP ${reply.status}`;
        return;
      }
      if (reply.status >= 500 || reply.status === 429) {
        this.stats.retries++;
        return;
      }
      this.pending = null;
      this.stats.batches++;
      if (reply.status !== 200) continue;
      const body = reply.body as DeviceBatchResponse;
      this.stats.accepted += body.accepted;
      this.stats.rejected += body.rejected.length;
      for (const command of body.commands) this.execute(command, now);
    }
  }

  private execute(command: DeviceCommand, now: number) {
    if (this.executed.has(command.id)) return;
    this.executed.add(command.id);
    this.stats.commands++;
    const time = new Date(now).toISOString();
    let success = true;
    let detail = '';
    if (command.cmd_type === 'set_engine_boot_permission') {
      const cmd = Number(command.cmd_info.cmd);
      if (cmd === 0 || cmd === 1) this.vehicle.setEngineLine(cmd);
      else {
        success = false;
        detail = 'cmd が不正です';
      }
    }
    this.queue.push({ type: 'command_result', time, command_id: command.id, success, detail });
  }
}
