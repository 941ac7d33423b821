import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Who used the machine's cores during a measured phase (Linux /proc; elsewhere nothing is reported):
 * this process (the bench, whose server runs in it), PostgreSQL (every process named `postgres` on this
 * host; none when the database runs elsewhere), and the rest (the bench's client process, anything else
 * running), each in cores (1.0 = one core busy the whole phase). CPU time is counted in the kernel's
 * USER_HZ ticks (100 a second on Linux whatever the kernel's own rate).
 */
const TICKS_PER_SECOND = 100;

interface Snapshot {
  at: number;
  self: number;
  /** This process's main thread (the server's event loop): ns on a core and ns runnable but waiting for one. */
  main: readonly [number, number] | undefined;
  postgres: number;
  /** Busy ticks of every core (/proc/stat's first line, idle and iowait left out). */
  machine: number;
}

/** utime + stime of a process, in ticks; undefined when it is gone or unreadable. */
function processTicks(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/task/<pid>/schedstat of this process's main thread: ns running, ns waiting on a run queue. */
function mainThreadSched(): readonly [number, number] | undefined {
  try {
    const [running, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return running === undefined || waiting === undefined ? undefined : [running, waiting];
  } catch {
    return undefined;
  }
}

function postgresTicks(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'postgres') continue;
    const ticks = processTicks(pid);
    if (ticks !== undefined) out.set(pid, ticks);
  }
  return out;
}

function machineTicks(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
  return cpu.reduce((a, b) => a + b, 0) - (cpu[3] ?? 0) - (cpu[4] ?? 0);
}

export interface CpuShare {
  seconds: number;
  /** Cores used on average during the phase. */
  self: number;
  postgres: number;
  rest: number;
  /**
   * This process's main thread, as shares of the phase: on a core, and ready to run but waiting for one
   * (other processes or this one's helper threads had them). Where both add up to about 1 the event loop
   * was never idle, and the waiting is what the shared cores cost it.
   */
  mainThread?: { running: number; waiting: number };
  cores: number;
  /** Whether any PostgreSQL process was seen on this host. */
  postgresSeen: boolean;
}

/**
 * Starts counting; the returned function ends the phase and says who used the cores, or undefined
 * where /proc cannot be read. PostgreSQL processes that start during the phase (a new backend) count
 * from zero, those that end during it are left out.
 */
export function cpuShare(): () => CpuShare | undefined {
  let start: (Snapshot & { backends: Map<string, number> }) | undefined;
  try {
    const backends = postgresTicks();
    start = {
      at: performance.now(),
      self: processTicks(String(process.pid)) ?? 0,
      main: mainThreadSched(),
      postgres: 0,
      machine: machineTicks(),
      backends,
    };
  } catch {
    start = undefined;
  }
  return () => {
    if (!start) return undefined;
    try {
      const seconds = (performance.now() - start.at) / 1000;
      const backends = postgresTicks();
      let postgres = 0;
      for (const [pid, ticks] of backends) postgres += ticks - (start.backends.get(pid) ?? 0);
      const self = (processTicks(String(process.pid)) ?? 0) - start.self;
      const machine = machineTicks() - start.machine;
      const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
      const main = mainThreadSched();
      const mainThread =
        main && start.main
          ? { running: (main[0] - start.main[0]) / 1e9 / seconds, waiting: (main[1] - start.main[1]) / 1e9 / seconds }
          : undefined;
      return {
        ...(mainThread ? { mainThread } : {}),
        seconds,
        self: cores(self),
        postgres: cores(postgres),
        rest: Math.max(0, cores(machine - self - postgres)),
        cores: os.cpus().length,
        postgresSeen: backends.size > 0,
      };
    } catch {
      return undefined;
    }
  };
}

/** Phases taken as one: their seconds added, each side's cores weighed by its phase's seconds. */
export function combineShares(shares: readonly CpuShare[]): CpuShare {
  const seconds = shares.reduce((n, s) => n + s.seconds, 0);
  /** A figure of the phases, each weighed by its seconds. */
  const weigh = (figure: (s: CpuShare) => number) => shares.reduce((n, s) => n + figure(s) * s.seconds, 0) / seconds;
  const weighed = (side: 'self' | 'postgres' | 'rest') => weigh((s) => s[side]);
  const mainThread = shares.every((s) => s.mainThread !== undefined)
    ? { running: weigh((s) => s.mainThread!.running), waiting: weigh((s) => s.mainThread!.waiting) }
    : undefined;
  return {
    ...(mainThread ? { mainThread } : {}),
    seconds,
    self: weighed('self'),
    postgres: weighed('postgres'),
    rest: weighed('rest'),
    cores: shares[0]!.cores,
    postgresSeen: shares.some((s) => s.postgresSeen),
  };
}

/**
 * "server 1.05, PostgreSQL 0.45, the rest 0.30 of 2 cores (12.0 s)"; with `items`, each side's CPU time
 * an item too (", a record: server 25.2, PostgreSQL 10.8 µs"): steadier between runs than the rate
 * where the machine is shared.
 */
export const describeShare = (
  share: CpuShare,
  selfName: string,
  restName: string,
  items?: { n: number; name: string },
) => {
  const each = (cores: number) => ((cores * share.seconds * 1e6) / items!.n).toFixed(1);
  return (
    `${selfName} ${share.self.toFixed(2)}${share.mainThread ? ` (its main thread on a core ${share.mainThread.running.toFixed(2)} of the time, waiting for one ${share.mainThread.waiting.toFixed(2)})` : ''}, PostgreSQL ${share.postgresSeen ? share.postgres.toFixed(2) : '(not on this host)'}, ` +
    `${restName} ${share.rest.toFixed(2)} of ${share.cores} cores (${share.seconds.toFixed(1)} s)` +
    (items && items.n > 0
      ? `, a ${items.name}: ${selfName} ${each(share.self)}${share.postgresSeen ? `, PostgreSQL ${each(share.postgres)}` : ''} µs`
      : '')
  );
};
