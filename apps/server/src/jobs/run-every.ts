/** A piece of background work and how often it runs. */
export interface Job {
  name: string;
  periodMs: number;
  /** Run once at start as well, not only after the first period. */
  runAtStart?: boolean;
  run(): Promise<unknown>;
}

/**
 * Runs each job every period; a run never overlaps the job's previous one (a slow run skips the ticks
 * it spans). A failed run is logged and the job goes on. stop() clears the timers and waits for the
 * runs in progress. Timers are unref'd: they never keep the process alive.
 */
export function runEvery(jobs: readonly Job[], log: { warn(obj: object, msg: string): void }) {
  const inFlight = new Map<Job, Promise<void>>();
  const fire = (job: Job) => {
    if (inFlight.has(job)) return;
    const run = job
      .run()
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err, job: job.name }, `${job.name} failed`))
      .finally(() => inFlight.delete(job));
    inFlight.set(job, run);
  };
  const timers = jobs.map((job) => {
    const timer = setInterval(() => fire(job), job.periodMs);
    timer.unref();
    if (job.runAtStart) fire(job);
    return timer;
  });
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all(inFlight.values());
    },
  };
}
