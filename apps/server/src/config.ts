import { isIP } from 'node:net';
import { terminalTakeoverModes } from '@fleet/contract';
import { HASH_PARAMS, TEST_HASH_LOG2N } from './credentials/password.js';
import { DEFAULT_PUSH_SERVICE_HOSTS, parsePushHosts } from './push/push-hosts.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root, so `./data` means the same folder whichever workspace npm runs in. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const GSI_TILE_URL = 'https://cyberjapandata.gsi.go.jp/xyz/std/{z}/{x}/{y}.png';
export const GSI_REVERSE_GEOCODER_URL = 'https://mreversegeocoder.gsi.go.jp/reverse-geocoder/LonLatToAddress';
export const GSI_ADDRESS_SEARCH_URL = 'https://msearch.gsi.go.jp/address-search/AddressSearch';
/** An outside service's URL, or `off`. */
const serviceUrl = (byDefault: string) =>
  z
    .string()
    .default(byDefault)
    .refine((v) => v === 'off' || /^https?:\/\/\S+$/.test(v), 'an http(s) URL, or off');
export const GSI_ATTRIBUTION =
  '出典：<a href="https://maps.gsi.go.jp/development/ichiran.html" target="_blank" rel="noopener">国土地理院</a>';
const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener">OpenStreetMap</a> contributors';

/** The attribution a tile server asks for, when TILE_ATTRIBUTION does not say. */
const attributionFor = (tileUrl: string) =>
  tileUrl.includes('gsi.go.jp') ? GSI_ATTRIBUTION : tileUrl.includes('openstreetmap') ? OSM_ATTRIBUTION : '';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** A proxy address, a CIDR block, or one of proxy-addr's names. */
const isProxyAddress = (entry: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  const maxBits = family === 4 ? 32 : 128;
  return (
    family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))
  );
};
/**
 * Which proxies may set X-Forwarded-For: a hop count (`0` none, `1` the one in
 * front of us, ... `true` means 1), or a comma-separated list of their
 * addresses/CIDRs. Never "trust every hop": a client would choose its own IP.
 */
const trustProxy = z.string().transform((v, ctx): number | string[] | false => {
  const text = v.trim();
  if (text === 'false') return false;
  if (text === 'true') return 1;
  if (/^\d{1,2}$/.test(text)) return Number(text) === 0 ? false : Number(text);
  const list = text.split(',').map((a) => a.trim());
  if (list.every(isProxyAddress)) return list;
  ctx.addIssue({ code: 'custom', message: 'a hop count (0, 1, 2…) or comma-separated proxy addresses/CIDRs' });
  return z.NEVER;
});
/** Milliseconds, at least 100 (the tests use short ones). */
const millis = (byDefault: number) => z.coerce.number().int().min(100).max(3_600_000).default(byDefault);

const ConfigSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** OsmAnd / Traccar Client's own port (`http://host:5055/<password>`); 0 = off (docs/device-protocol.md §10). */
  OSMAND_PORT: z.coerce.number().int().min(0).max(65535).default(5055),
  /** Teltonika terminals (Codec 8/8E/12 over TCP); 0 = off (docs/device-protocol.md §11). */
  TELTONIKA_PORT: z.coerce.number().int().min(0).max(65535).default(5027),
  /** GT06 / Concox terminals (TCP); 0 = off (docs/device-protocol.md §12). */
  GT06_PORT: z.coerce.number().int().min(0).max(65535).default(5023),
  /** JT/T 808 terminals (TCP); 0 = off (docs/device-protocol.md, JT/T 808). */
  JT808_PORT: z.coerce.number().int().min(0).max(65535).default(5015),
  /** H02 terminals (TCP); 0 = off (docs/device-protocol.md, H02). */
  H02_PORT: z.coerce.number().int().min(0).max(65535).default(5013),
  /** GPS103 / TK103 terminals (TCP); 0 = off (docs/device-protocol.md, GPS103). */
  GPS103_PORT: z.coerce.number().int().min(0).max(65535).default(5001),
  /** Queclink @Track terminals (TCP); 0 = off (docs/device-protocol.md, Queclink). */
  GL200_PORT: z.coerce.number().int().min(0).max(65535).default(5004),
  /**
   * A second TCP login for an IMEI whose link is alive: `refuse` it (the live link keeps the terminal) or
   * `replace` the live link with it; either way the 端末の二重接続 alert (docs/security.md "Terminal identity").
   */
  TERMINAL_TAKEOVER: z.enum(terminalTakeoverModes).default('refuse'),
  HOST: z.string().min(1).default('localhost'),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('data'),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('フリートコンソール <no-reply@localhost>'),
  PUBLIC_URL: z.url().optional(),
  /** Map tiles: 地理院タイル (GSI) by default, free for use with the attribution below. */
  TILE_URL: z.string().default(GSI_TILE_URL),
  /** The map's attribution (HTML); unset: GSI's for GSI tiles, OpenStreetMap's for OSM tiles, else none. */
  TILE_ATTRIBUTION: z.string().optional(),
  /** When set, GET /metrics wants `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * A port of its own for GET /metrics (then not served on PORT); unset or 0: none. In production, without
   * it or METRICS_TOKEN, metrics are off (ops/metrics.ts metricsExposure).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** `pretty` (colours, one line per event) or `json` (one JSON object per line, for log collectors). */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  SIMULATE: flag.default(true),
  /**
   * The in-process caches of sessions (sessions/session-cache.ts) and reporting terminals
   * (credentials/terminal-cache.ts). Unset: on, except under NODE_ENV=test, whose tests write sessions,
   * accounts and terminals straight into the database without saying so (the caches' own tests turn them on).
   */
  SESSION_CACHE: flag.optional(),
  TRUST_PROXY: trustProxy.default(false),
  /** The whole request (headers and body) must arrive within this; slow and stalled bodies are cut off. */
  REQUEST_TIMEOUT_MS: millis(30_000),
  /** The headers must arrive within this. */
  HEADERS_TIMEOUT_MS: millis(10_000),
  /** A connection with no traffic either way is closed after this. */
  CONNECTION_TIMEOUT_MS: millis(120_000),
  /** An idle keep-alive connection is closed after this: longer than a load balancer's idle timeout (often 60 s). */
  KEEP_ALIVE_TIMEOUT_MS: millis(72_000),
  /** On SIGTERM/SIGINT the server drains (requests, jobs, terminal links) for at most this long, then exits anyway. */
  SHUTDOWN_TIMEOUT_MS: millis(10_000),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(120),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Web Push VAPID key pair (base64url, as `web-push generate-vapid-keys` prints); unset: made once, kept in the database. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'an uncompressed P-256 public key, base64url (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 private key, base64url (43 characters)')
    .optional(),
  /** Who runs the push sender, for the push services: a mailto: address or an https: URL. */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(v), 'a mailto: address or an https: URL')
    .default('mailto:no-reply@localhost'),
  /** The push services (host names, `*.domain` for subdomains) browser subscriptions may point at; see push/push-hosts.ts. */
  PUSH_SERVICE_HOSTS: z
    .string()
    .default(DEFAULT_PUSH_SERVICE_HOSTS)
    .transform(parsePushHosts)
    .refine(
      (hosts) => hosts.every((h) => /^(\*\.)?[a-z0-9.-]+$/.test(h)),
      'comma-separated host names, `*.domain` for subdomains',
    ),
  /**
   * Webhooks may be sent to this machine and internal networks (loopback, RFC 1918, link-local, unique-local,
   * CGNAT…): for on-premises deployments whose receivers are inside. Off: refused when saved and when called.
   */
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /** Reverse geocoding (GSI's LonLatToAddress by default; `off` turns addresses off): docs/geocoding.md. */
  REVERSE_GEOCODER_URL: serviceUrl(GSI_REVERSE_GEOCODER_URL),
  /** Place search on the maps (GSI's AddressSearch by default; `off` turns it off). */
  ADDRESS_SEARCH_URL: serviceUrl(GSI_ADDRESS_SEARCH_URL),
  /** Reverse geocoding requests per second for the whole deployment (every instance together). */
  GEOCODER_RATE: z.coerce.number().min(0.1).max(100).default(2),
  /** One request to either service is given up after this. */
  GEOCODER_TIMEOUT_MS: millis(5_000),
  /** Telemetry logs older than this many days are dropped, a whole day partition at a time; 0 keeps them forever. */
  TELEMETRY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(100 * 366)
    .default(0),
});

export type Config = z.output<typeof ConfigSchema> & {
  production: boolean;
  tileAttribution: string;
  logFormat: 'pretty' | 'json';
  dataDir: string;
  publicUrl: string;
  /** scrypt's cost (log2 N) for new password hashes: the production strength, cheaper only under NODE_ENV=test. */
  passwordHashLog2N: number;
};

/** Parses the environment once at start-up and fails loudly with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = ConfigSchema.refine((c) => c.HEADERS_TIMEOUT_MS <= c.REQUEST_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    message: 'must not exceed REQUEST_TIMEOUT_MS',
  })
    .refine((c) => (c.VAPID_PUBLIC_KEY === undefined) === (c.VAPID_PRIVATE_KEY === undefined), {
      path: ['VAPID_PRIVATE_KEY'],
      message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together (or neither)',
    })
    .safeParse(blankToUndefined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const base = env.INIT_CWD ?? repoRoot;
  return {
    ...c,
    production: c.NODE_ENV === 'production',
    tileAttribution: c.TILE_ATTRIBUTION ?? attributionFor(c.TILE_URL),
    logFormat: c.LOG_FORMAT ?? (c.NODE_ENV === 'production' ? 'json' : 'pretty'),
    dataDir: path.resolve(base, c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    passwordHashLog2N: c.NODE_ENV === 'test' ? TEST_HASH_LOG2N : HASH_PARAMS.log2N,
  };
}
