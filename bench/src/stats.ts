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

export const ms = (n: number) =>
  Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)) : '—';
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
