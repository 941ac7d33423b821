import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt at OWASP ASVS strength: N=2^17, r=8, p=1, 64-byte key, 16-byte salt.
 * Stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` so old hashes stay readable
 * and are upgraded on the next successful login (needsRehash).
 */
export const HASH_PARAMS = { log2N: 17, r: 8, p: 1, keyLength: 64 } as const;

/**
 * The cost of new hashes under NODE_ENV=test (config's `passwordHashLog2N`): N=2^10, a 128th of the work of
 * N=2^17 (bench/README.md, Measurements behind the code: Passwords), as Rails' and Django's test set-ups do, since the API tests sign in thousands
 * of times.
 * Verification reads each hash's own parameters, so nothing else differs; a hash of this cost that
 * reached a real database is upgraded at its first sign-in (needsRehash).
 */
export const TEST_HASH_LOG2N = 10;

const derive = (password: string, salt: Buffer, log2N: number, r: number, p: number, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) => {
    const N = 2 ** log2N;
    const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** A new hash at `log2N` (config's `passwordHashLog2N`; by default the production strength). */
export async function hashPassword(password: string, log2N: number = HASH_PARAMS.log2N): Promise<string> {
  const { r, p, keyLength } = HASH_PARAMS;
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

/** True when a stored hash is weaker than a new one at `log2N` would be (never to lower a stronger one). */
export function needsRehash(stored: string, log2N: number = HASH_PARAMS.log2N): boolean {
  const h = parse(stored);
  return (
    !h || h.log2N < log2N || h.r !== HASH_PARAMS.r || h.p !== HASH_PARAMS.p || h.key.length !== HASH_PARAMS.keyLength
  );
}
