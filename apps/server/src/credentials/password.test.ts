import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_PARAMS, TEST_HASH_LOG2N, hashPassword, needsRehash, verifyPassword } from './password.js';

/** A hash in the stored format, made with cheaper parameters than today's (a shorter key, by default). */
const oldHash = (password: string, log2N = 14, keyLength = 32) => {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, keyLength, { N: 2 ** log2N, r: 8, p: 1 });
  return ['scrypt', log2N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
};

describe('hashPassword / verifyPassword', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', String(HASH_PARAMS.log2N), '8', '1']);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
  });

  it('hashes at the cost it is given (config: the tests’ cheaper one)', async () => {
    const hash = await hashPassword('cheap', TEST_HASH_LOG2N);
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', String(TEST_HASH_LOG2N), '8', '1']);
    expect(await verifyPassword('cheap', hash)).toBe(true);
    expect(needsRehash(hash, TEST_HASH_LOG2N)).toBe(false);
    expect(needsRehash(hash)).toBe(true);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
  });

  it('treats full-width and half-width input alike (NFKC)', async () => {
    const hash = oldHash('Pass1234'.normalize('NFKC'));
    expect(await verifyPassword('Ｐａｓｓ１２３４', hash)).toBe(true);
  });

  it('verifies a hash made with older parameters', async () => {
    const hash = oldHash('legacy-pass');
    expect(await verifyPassword('legacy-pass', hash)).toBe(true);
    expect(await verifyPassword('legacy-pasS', hash)).toBe(false);
  });

  it.each([
    ['no stored hash', undefined],
    ['garbage', 'not-a-hash'],
    ['another algorithm', '$2b$10$abcdefghijklmnopqrstuv'],
    ['a cost beyond the cap (a denial-of-service guard)', 'scrypt$30$8$1$c2FsdA==$a2V5'],
  ])('refuses %s', async (_label, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });
});

describe('needsRehash', () => {
  it('is false for a hash made today', async () => {
    expect(needsRehash(await hashPassword('fresh'))).toBe(false);
  });

  it.each([
    ['older cost', oldHash('x', 14)],
    ['a shorter key', ['scrypt', HASH_PARAMS.log2N, 8, 1, 'c2FsdA==', Buffer.alloc(32).toString('base64')].join('$')],
    ['an unreadable hash', 'md5$abc'],
  ])('is true for %s', (_label, stored) => {
    expect(needsRehash(stored)).toBe(true);
  });

  it('is false for a hash stronger than the cost asked for: never lowered', () => {
    const hash = oldHash('x', 14, HASH_PARAMS.keyLength);
    expect(needsRehash(hash, 12)).toBe(false);
    expect(needsRehash(hash, 14)).toBe(false);
    expect(needsRehash(hash, 15)).toBe(true);
  });
});
