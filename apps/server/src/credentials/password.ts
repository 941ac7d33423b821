import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt at OWASP ASVS strength: N=2^17, r=8, p=1, 64-byte key, 16-byte salt.
 * Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` so old hashes stay readable
 * and are upgraded on the next successful login (needsRehash).
 */
export const HASH_PARAMS = { log2N: 17, r: 8, p: 1, keyLength: 64 } as const;

const derive = (password: string, salt: Buffer, log2N: number, r: number, p: number, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) => {
    const N = 2 ** log2N;
    const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p, keyLength } = HASH_PARAMS;
  const salt = randomBytes(16);
  const key = await derive(password, salt, log2N, r, p, keyLength);
  return ['scrypt', log2N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(stored: string) {
  const [alg, log2N, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return null;
  const nums = [Number(log2N), Number(r), Number(p)];
  if (nums.some((n) => !Number.isInteger(n) || n < 1) || nums[0]! > 20) return null;
  return {
    log2N: nums[0]!,
    r: nums[1]!,
    p: nums[2]!,
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
}

/** A hash of nothing, verified against when the account does not exist, so timing tells nothing. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const h = parse(stored ?? (await (dummyHash ??= hashPassword('dummy-password'))));
  if (!h) return false;
  const key = await derive(password, h.salt, h.log2N, h.r, h.p, h.key.length);
  return stored !== undefined && key.length === h.key.length && timingSafeEqual(key, h.key);
}

export function needsRehash(stored: string): boolean {
  const h = parse(stored);
  return (
    !h ||
    h.log2N !== HASH_PARAMS.log2N ||
    h.r !== HASH_PARAMS.r ||
    h.p !== HASH_PARAMS.p ||
    h.key.length !== HASH_PARAMS.keyLength
  );
}
