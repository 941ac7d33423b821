import { describe, expect, it, vi } from 'vitest';
import { generateId, generateUniqueId, IdGenerationError } from './id.js';

describe('generateId', () => {
  it('makes 8-16 characters of the URL-safe base64 alphabet', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const id = generateId();
      expect(id).toMatch(/^[A-Za-z0-9_-]{8,16}$/);
      lengths.add(id.length);
    }
    expect(Math.min(...lengths)).toBe(8);
    expect(Math.max(...lengths)).toBe(16);
  });
  it('starts with a letter or digit, never "-" or "_"', () => {
    for (let i = 0; i < 2000; i++) expect(generateId()).toMatch(/^[A-Za-z0-9]/);
    // The bytes that map to "-" and "_" elsewhere (62 and 63) give a letter or digit in front.
    expect(generateId((n) => new Uint8Array(n).fill(62))).toMatch(/^[A-Za-z0-9]-+$/);
    expect(generateId((n) => new Uint8Array(n).fill(63))).toMatch(/^[A-Za-z0-9]_+$/);
  });
  it('is random: 2000 ids are distinct', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => generateId()));
    expect(ids.size).toBe(2000);
  });
});

describe('generateUniqueId', () => {
  it('returns the first id the check says is free', async () => {
    const isTaken = vi.fn().mockResolvedValueOnce(true).mockResolvedValueOnce(true).mockResolvedValue(false);
    const id = await generateUniqueId(isTaken);
    expect(isTaken).toHaveBeenCalledTimes(3);
    expect(isTaken).toHaveBeenLastCalledWith(id);
  });
  it('fails clearly after 10 attempts', async () => {
    const isTaken = vi.fn().mockResolvedValue(true);
    await expect(generateUniqueId(isTaken)).rejects.toBeInstanceOf(IdGenerationError);
    await expect(generateUniqueId(isTaken)).rejects.toThrow('IDの生成に失敗しました');
    expect(isTaken).toHaveBeenCalledTimes(20);
  });
});
