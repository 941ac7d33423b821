import { lookup as systemLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { deliveryErrorMessages, type DeliveryFailure } from '@fleet/contract';

/** The outcome of one outbound POST: the answer's status (null: none came) and why it failed (null: 2xx). */
export interface HttpAttempt {
  status: number | null;
  /**
   * What the outbox row shows: `HTTP <status>` for an answer that is not 2xx, otherwise a category from the
   * contract (deliveryErrorMessages), never the socket's message, which names the address and port tried.
   */
  error: string | null;
  /** For the server's own log: the system's code (`ECONNREFUSED`, `ENOTFOUND`…) or the category. */
  cause?: string;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to every address it has (dns.lookup with `all`, in the resolver's order). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
export const systemResolver: Resolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/** Which addresses a call may connect to (webhooks/webhook-target.ts), and how names are resolved. */
export interface AddressGuard {
  allowed(address: string): boolean;
  resolve?: Resolver;
}

class AttemptFailure extends Error {
  constructor(
    readonly failure: DeliveryFailure,
    readonly code: string = failure,
  ) {
    super(failure);
  }
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

function failureOf(err: unknown): AttemptFailure {
  if (err instanceof AttemptFailure) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return new AttemptFailure('other', err instanceof Error ? err.name : 'unknown');
  if (DNS_CODES.has(code)) return new AttemptFailure('dns', code);
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR') return new AttemptFailure('timeout', code);
  if (CONNECT_CODES.has(code)) return new AttemptFailure('connect', code);
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code))
    return new AttemptFailure('tls', code);
  return new AttemptFailure('other', code);
}

/**
 * The addresses to connect to, resolved once: a literal address is itself, a name is resolved and every
 * address it has must be allowed (one internal address among public ones is enough to refuse: the socket
 * could pick it).
 */
async function addressesOf(hostname: string, guard: AddressGuard | undefined): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  const addresses = family
    ? [{ address: hostname, family }]
    : await (guard?.resolve ?? systemResolver)(hostname).catch((err: unknown) => {
        throw new AttemptFailure('dns', failureOf(err).code);
      });
  if (!addresses.length) throw new AttemptFailure('dns', 'ENODATA');
  if (guard && !addresses.every((a) => guard.allowed(a.address))) throw new AttemptFailure('blocked');
  return addresses;
}

/**
 * Hands the socket the addresses checked above instead of resolving the name again: a second resolution
 * could answer differently (DNS rebinding), and the check would have judged another address.
 */
const lookupFrom =
  (addresses: ResolvedAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    const fitting = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = fitting.length ? fitting : addresses;
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };

/**
 * One delivery attempt over HTTP, as the webhook and push dispatchers make it: never follows a redirect
 * (a 3xx is a failure, so a receiver cannot bounce the call to another host), gives up after `timeoutMs`
 * (resolution, connection and answer together), opens a connection of its own (no pooled socket to an
 * address resolved earlier) and turns a failure into a category for the outbox row. With `guard`, the
 * host's addresses are resolved once, checked, and the socket connects to those very addresses; TLS still
 * names the host (SNI, certificate check) and so does the Host header. With `detail`, the first 200
 * characters of a failed answer's body go into the error.
 */
export async function postOnce(
  url: string,
  init: {
    headers: Record<string, string>;
    body: string | Uint8Array | null;
    timeoutMs: number;
    detail?: boolean;
    guard?: AddressGuard;
  },
): Promise<HttpAttempt> {
  let timer: NodeJS.Timeout | undefined;
  const abort = new AbortController();
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new AttemptFailure('timeout'));
    }, init.timeoutMs);
  });
  timedOut.catch(() => undefined);
  try {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new AttemptFailure('other', 'protocol');
    const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses = await Promise.race([addressesOf(hostname, init.guard), timedOut]);
    return await Promise.race([send(target, addresses, init, abort.signal), timedOut]);
  } catch (err) {
    const f = abort.signal.aborted ? new AttemptFailure('timeout') : failureOf(err);
    return { status: null, error: deliveryErrorMessages[f.failure], cause: f.code };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

function send(
  target: URL,
  addresses: ResolvedAddress[],
  init: { headers: Record<string, string>; body: string | Uint8Array | null; detail?: boolean },
  signal: AbortSignal,
): Promise<HttpAttempt> {
  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      { method: 'POST', headers: init.headers, agent: false, lookup: lookupFrom(addresses), signal },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const answer = (text = ''): HttpAttempt =>
          ok
            ? { status, error: null }
            : { status, error: `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`, cause: `HTTP ${status}` };
        if (ok || !init.detail) {
          resolve(answer());
          res.destroy();
          return;
        }
        let text = '';
        const done = () => {
          resolve(answer(text));
          res.destroy();
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length >= 200) done();
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
    req.end(init.body ?? undefined);
  });
}
