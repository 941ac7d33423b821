/**
 * Lookups by key that arrive together become one query: keys asked for while
 * `concurrency` queries are running wait and go together in the next one (at
 * most `max` keys each). Nothing is cached: every answer comes from a query
 * that started after it was asked for. With a free slot a key is looked up at
 * once, alone. This keeps a thousand terminals from queueing a thousand
 * statements for the pool's ten connections.
 */
export function coalesce<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
  opts: { concurrency?: number; max?: number } = {},
): (key: K) => Promise<V | undefined> {
  const concurrency = opts.concurrency ?? 2;
  const max = opts.max ?? 500;
  const waiting = new Map<K, { resolve(v: V | undefined): void; reject(err: unknown): void }[]>();
  let running = 0;

  const pump = () => {
    while (running < concurrency && waiting.size > 0) {
      const batch = new Map<K, { resolve(v: V | undefined): void; reject(err: unknown): void }[]>();
      for (const [key, callers] of waiting) {
        if (batch.size >= max) break;
        batch.set(key, callers);
      }
      for (const key of batch.keys()) waiting.delete(key);
      running++;
      load([...batch.keys()])
        .then(
          (found) => {
            for (const [key, callers] of batch) for (const c of callers) c.resolve(found.get(key));
          },
          (err: unknown) => {
            for (const callers of batch.values()) for (const c of callers) c.reject(err);
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      pump();
    });
}
