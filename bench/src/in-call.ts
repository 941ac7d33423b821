import pg from 'pg';

/**
 * The list section's second anchor (issue #19, 28 November): how long each statement of an API call took
 * inside that call, timed around the server's own `pg` query (from `client.query` until its promise
 * settles: sending, PostgreSQL's work, the answer's parsing), the same span the replay anchor times in its
 * own process. It runs on the connection and at the moment the call ran it, so what is left of the call's
 * time is the API's own work; a replay runs on another backend a few milliseconds apart, whose speed on
 * this machine differs from the server's by up to a quarter for the same statement (bench/HISTORY.md,
 * "Two anchors").
 *
 * `pg.Client.prototype.query` is wrapped once in the bench's process (the server's pool makes its clients
 * from the same module); nothing is recorded until `start`. The product never loads this file.
 */
export interface QueryTiming {
  text: string;
  ms: number;
}

let recording: QueryTiming[] | null = null;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function timedQuery(this: pg.Client, ...args: unknown[]) {
    const into = recording;
    const t = performance.now();
    const out = query.apply(this, args);
    if (into && out instanceof Promise) {
      const config = args[0] as string | { text?: string };
      const text = typeof config === 'string' ? config : (config.text ?? '');
      // Registered before the caller's own `await`: runs first once the answer is parsed.
      out.then(
        () => into.push({ text, ms: performance.now() - t }),
        () => undefined,
      );
    }
    return out;
  } as typeof pg.Client.prototype.query;
}

/** Records the timing of every query run through `pg` in this process from now on, until `take`. */
export function startInCall() {
  install();
  recording = [];
}

/** The timings recorded since the last `startInCall` or `take`, and a fresh record. */
export function takeInCall(): QueryTiming[] {
  const out = recording ?? [];
  if (recording) recording = [];
  return out;
}

/** Stops recording. */
export function stopInCall() {
  recording = null;
}

/**
 * A statement of the session's upkeep (its lookup, the idle-time slide), not of the call's own work: left
 * out of both anchors.
 */
export const isSessionUpkeep = (text: string) => /\bsessions\b/.test(text);

/**
 * The SQL time of each timed call in a block of calls of one case: the block's timings (the session's
 * upkeep left out, as the replay leaves it out), `perCall` statements a call, summed by call, the block's
 * first call dropped (the client does not time it). Throws when the block did not run `perCall` statements
 * a call.
 */
export function sqlTimePerCall(block: readonly QueryTiming[], perCall: number): number[] {
  const own = block.filter((q) => !isSessionUpkeep(q.text));
  if (perCall < 1 || own.length % perCall !== 0)
    throw new Error(`a block of calls ran ${own.length} statements, not a multiple of ${perCall}`);
  const calls: number[] = [];
  for (let i = perCall; i < own.length; i += perCall) {
    let sum = 0;
    for (let k = i; k < i + perCall; k++) sum += own[k]!.ms;
    calls.push(sum);
  }
  return calls;
}
