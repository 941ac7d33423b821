import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';

/**
 * A browser's side of Web Push for tests, written from the RFCs with node:crypto alone (not web-push),
 * so it checks the server's messages independently: a subscription's keys (ECDH P-256 pair and the
 * 16-byte auth secret), the decryption of an aes128gcm body (RFC 8291 with RFC 8188), and the VAPID
 * JWT (RFC 8292, ES256).
 */
export interface BrowserKeys {
  ecdh: ECDH;
  /** Base64url of the uncompressed public key, as PushSubscription.toJSON().keys.p256dh. */
  p256dh: string;
  authSecret: Buffer;
  auth: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    authSecret,
    auth: authSecret.toString('base64url'),
  };
}

/** RFC 8291 §3.4 / RFC 8188 §2: decrypts a single-record aes128gcm message body. */
export function decryptAes128gcm(body: Buffer, keys: BrowserKeys): string {
  // RFC 8188 §2.1 header: salt (16) | rs (uint32) | idlen (1) | keyid (idlen) — the keyid is the sender's public key.
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65 || asPublic[0] !== 4) throw new Error(`keyid is not an uncompressed P-256 key (${idlen} bytes)`);
  if (ciphertext.length > rs) throw new Error('more than one record');
  // RFC 8291 §3.3: ecdh_secret, then IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" 0x00 ua_public as_public, 32).
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.authSecret, keyInfo, 32));
  // RFC 8188 §2.2-2.3: CEK and NONCE from the salt.
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: checks `Authorization: vapid t=<JWT>, k=<public key>` and answers the JWT's claims. */
export function verifyVapid(authorization: string | undefined, expectedPublicKey: string) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  if (k !== expectedPublicKey) throw new Error('k is not the server’s public key');
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('VAPID JWT signature does not verify');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { typ: string; alg: string },
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string },
  };
}

export interface PushCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local push service: records each request (raw body) and answers the next status of `answers` (then 201). */
export async function startPushService() {
  const calls: PushCall[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.shift() ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type PushService = Awaited<ReturnType<typeof startPushService>>;
