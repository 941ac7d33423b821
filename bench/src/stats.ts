/** Timing helpers: percentiles and a sampler bounded by count and by time. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;

export interface Sample {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}

export function summarize(ms: readonly number[]): Sample {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1) ?? NaN, n: s.length };
}

/** Runs `fn` `untimed` times, then `timed` times one after the other; the milliseconds of each timed run. */
export async function timedRuns(fn: () => Promise<unknown>, untimed: number, timed: number): Promise<number[]> {
  for (let n = 0; n < untimed; n++) await fn();
  const out: number[] = [];
  for (let n = 0; n < timed; n++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Runs `fn` `warmup` times unmeasured, then up to `runs` times or until `budgetMs` has passed (at least 3 runs). */
export async function sample(
  fn: () => Promise<unknown>,
  opts: { runs: number; warmup?: number; budgetMs?: number },
): Promise<Sample> {
  for (let i = 0; i < (opts.warmup ?? 2); i++) await fn();
  const out: number[] = [];
  const deadline = performance.now() + (opts.budgetMs ?? 5000);
  while (out.length < opts.runs && (out.length < 3 || performance.now() < deadline)) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return summarize(out);
}

/**
 * Two things timed in turns (A, B, A, B …, each warmed up first), so a machine that slows down or speeds
 * up meanwhile weighs on both alike; `ratio` is the median of each turn's A ÷ B. Up to `runs` turns or
 * until `budgetMs` has passed (at least 3).
 */
export async function samplePair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  opts: { runs: number; warmup?: number; budgetMs?: number },
): Promise<{ a: Sample; b: Sample; ratio: number }> {
  for (let i = 0; i < (opts.warmup ?? 2); i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const deadline = performance.now() + (opts.budgetMs ?? 5000);
  const timed = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  while (ta.length < opts.runs && (ta.length < 3 || performance.now() < deadline)) {
    // Which goes first alternates too: neither always follows the other's cache and plan work.
    const first = ta.length % 2 === 0;
    const x = first ? await timed(a) : 0;
    const y = await timed(b);
    ta.push(first ? x : await timed(a));
    tb.push(y);
  }
  const ratios = ta.map((x, i) => x / tb[i]!).sort((p, q) => p - q);
  return { a: summarize(ta), b: summarize(tb), ratio: percentile(ratios, 50) };
}

export const ms = (n: number) =>
  Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)) : '—';
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
