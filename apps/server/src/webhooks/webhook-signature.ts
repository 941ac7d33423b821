import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `X-Fleet-Signature: t=<unix seconds>,v1=<hex>`: HMAC-SHA256 with the receiver's secret over
 * `<t>.<body>`, as Stripe signs (docs/notifications.md shows the receiver's side).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmac(secret, `${unixSeconds}.${body}`)}`;
}

const hmac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload, 'utf8').digest('hex');

/** The receiver's check: the signature matches and is at most `toleranceSeconds` old. */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, `${t}.${body}`), 'hex');
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new signing secret: 32 random bytes, hex with a prefix. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('hex')}`;
