import { vi } from 'vitest';

export type Answer = [status: number, body: unknown];

/**
 * Stands in for the server: answers each call by its path. A list of answers is used up in order and
 * its last one repeats. Returns what was called, to check the bodies sent.
 */
export function serveApi(routes: Record<string, Answer | Answer[]>) {
  const calls: { path: string; body: unknown }[] = [];
  const json = ([status, body]: Answer) => new Response(JSON.stringify(body), { status });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = String(input);
    calls.push({ path, body: JSON.parse(String(init?.body ?? '{}')) });
    const route = routes[path];
    if (!route) return json([404, { code: 'NOT_FOUND', message: path }]);
    const answers = Array.isArray(route[0]) ? (route as Answer[]) : [route as Answer];
    return json(answers.length > 1 ? answers.shift()! : answers[0]!);
  });
  return {
    paths: () => calls.map((c) => c.path),
    bodiesOf: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body),
  };
}
