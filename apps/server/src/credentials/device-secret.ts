import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Terminal passwords are machine secrets checked on every report, so they get
 * a salted HMAC-SHA256 (fast) instead of the login's scrypt (deliberately slow).
 * Stored as `hmac256$<salt>$<mac>`.
 */
export function hashDeviceSecret(secret: string): string {
  const salt = randomBytes(16).toString('base64');
  return `hmac256$${salt}$${createHmac('sha256', salt).update(secret).digest('base64')}`;
}

export function verifyDeviceSecret(secret: string, stored: string): boolean {
  const [alg, salt, mac] = stored.split('$');
  if (alg !== 'hmac256' || !salt || !mac) return false;
  const expected = Buffer.from(mac, 'base64');
  const actual = createHmac('sha256', salt).update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
