import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEvery, type Job } from './run-every.js';

const log = { warn: vi.fn() };
afterEach(() => {
  vi.useRealTimers();
  log.warn.mockReset();
});

/** A job whose runs stay open until released. */
function heldJob(periodMs: number, runAtStart = false) {
  const releases: (() => void)[] = [];
  const job: Job = {
    name: 'held',
    periodMs,
    runAtStart,
    run: () => new Promise<void>((resolve) => releases.push(resolve)),
  };
  return { job, releases };
}

describe('runEvery', () => {
  it('runs a job every period, and at start when asked', async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => undefined);
    const jobs = runEvery([{ name: 'j', periodMs: 1000, runAtStart: true, run }], log);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(4);
    await jobs.stop();
  });

  it('never overlaps a run of the same job, and stop() waits for the run in progress', async () => {
    vi.useFakeTimers();
    const { job, releases } = heldJob(1000);
    const jobs = runEvery([job], log);
    vi.advanceTimersByTime(5000);
    expect(releases).toHaveLength(1);
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    releases[0]!();
    await stopping;
    expect(stopped).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(releases).toHaveLength(1);
  });

  it('logs a failed run and runs the job again next period', async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {
      throw new Error('boom');
    });
    const jobs = runEvery([{ name: 'failing', periodMs: 1000, run }], log);
    await vi.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ job: 'failing' }), 'failing failed');
    await jobs.stop();
  });
});
