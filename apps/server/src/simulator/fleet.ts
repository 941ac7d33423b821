import { kanagawaPlaces, tokyoPlaces } from './places.js';
import { createRandom } from './random.js';
import { SimTerminal, defaultTerminalOptions, type TerminalOptions, type TerminalStats } from './terminal.js';
import type { TerminalCredentials, Transport } from './transport.js';
import { SimVehicle, defaultVehicleOptions, type VehicleOptions } from './vehicle.js';

const MAX_CATCH_UP_MS = 5 * 60_000;

export interface FleetTerminal extends TerminalCredentials {
  /** Where the vehicle drives; Tokyo unless said otherwise. */
  region?: 'tokyo' | 'kanagawa';
}

export interface FleetLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface FleetOptions {
  terminals: readonly FleetTerminal[];
  transport: Transport;
  /** Same seed, same clock: same records. */
  seed?: number;
  /** Milliseconds since the epoch; Date.now by default. Tests pass a fake one. */
  clock?: () => number;
  /** Simulated time starts here (default: the clock's now). */
  start?: number;
  flushInterval?: number;
  vehicle?: Partial<VehicleOptions>;
  terminal?: Partial<TerminalOptions>;
  log?: FleetLog;
}

export interface Fleet {
  readonly terminals: readonly SimTerminal[];
  /** Simulated now, in ms. */
  readonly now: number;
  /** Simulates `seconds` one second at a time, flushing every flushInterval: deterministic. */
  run(seconds: number): Promise<void>;
  /** Follows the clock in real time until stop(). */
  start(): void;
  stop(): Promise<void>;
  stats(): TerminalStats & { terminals: number; refused: number; queued: number };
}

/**
 * A fleet of simulated terminals speaking the device protocol through a
 * transport (HTTP in real use). Driven in real time by start(), or step by
 * step by run() with an injected clock and seed, as the tests do.
 */
export function createFleet(opts: FleetOptions): Fleet {
  const clock = opts.clock ?? Date.now;
  const random = createRandom(opts.seed ?? 2026);
  const vehicleOpts = { ...defaultVehicleOptions, ...opts.vehicle };
  const terminalOpts = { ...defaultTerminalOptions, ...opts.terminal };
  const flushEvery = opts.flushInterval ?? 5;
  let now = opts.start ?? clock();
  const terminals = opts.terminals.map((t) => {
    const { region, ...creds } = t;
    const vehicle = new SimVehicle(region === 'kanagawa' ? kanagawaPlaces : tokyoPlaces, random, vehicleOpts);
    const terminal = new SimTerminal(creds, vehicle, random, Math.floor(now), terminalOpts);
    terminal.boot(now);
    return terminal;
  });
  const reported = new Set<SimTerminal>();
  let tick = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  const flush = async () => {
    await Promise.all(terminals.map((t) => t.flush(opts.transport, now)));
    for (const t of terminals) {
      if (t.refused && !reported.has(t)) {
        reported.add(t);
        opts.log?.warn(
          `simulator: ${t.creds.car_device_id} was refused by the gateway (${t.refused}); it stops reporting`,
        );
      }
    }
  };
  const stepOnce = () => {
    now += 1000;
    tick++;
    for (const t of terminals) if (!t.refused) t.step(now);
  };

  return {
    terminals,
    get now() {
      return now;
    },
    async run(seconds) {
      for (let i = 0; i < seconds; i++) {
        stepOnce();
        if (tick % flushEvery === 0) await flush();
      }
    },
    start() {
      if (timer) return;
      opts.log?.info(`simulator: ${terminals.length} terminals reporting every ${flushEvery} s`);
      timer = setInterval(() => {
        // After a pause (a sleeping laptop) skip ahead instead of replaying hours at once.
        if (clock() - now > MAX_CATCH_UP_MS) now = clock() - 1000;
        while (now + 1000 <= clock()) {
          stepOnce();
          // A slow gateway delays the next flush; records wait in the queues meanwhile.
          if (tick % flushEvery === 0 && !flushing) {
            flushing = flush()
              .catch((err: unknown) => opts.log?.warn(`simulator: flush failed: ${String(err)}`))
              .finally(() => {
                flushing = undefined;
              });
          }
        }
      }, 1000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await flushing;
    },
    stats() {
      const sum: TerminalStats = { batches: 0, accepted: 0, rejected: 0, retries: 0, commands: 0 };
      for (const t of terminals) for (const k of Object.keys(sum) as (keyof TerminalStats)[]) sum[k] += t.stats[k];
      return {
        ...sum,
        terminals: terminals.length,
        refused: terminals.filter((t) => t.refused).length,
        queued: terminals.reduce((n, t) => n + t.queued, 0),
      };
    },
  };
}
