/** The part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  /** One request of a cycle: each connection sends them in order, again and again. */
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each send: returns the request to send (e.g. with another body). */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    /** Called with each answer to this request, just before the instance's `response` event. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }
  /** Resolves with the result; emits `response` (client, status, bytes, ms) and `reqError` (error). */
  interface Instance extends EventEmitter, PromiseLike<Result> {}
  export default function autocannon(opts: Options): Instance;
}
