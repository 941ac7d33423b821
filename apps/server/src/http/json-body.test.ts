import { describe, expect, it } from 'vitest';
import { cannotPoison, nestsDeeperThan, scanDepth } from './json-body.js';

describe('nestsDeeperThan', () => {
  it.each([
    ['[]', 1, false],
    ['[[]]', 1, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['{"a":"[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a":"\\\\"}', 1, false],
    ['{"a":"\\\\",[[[1]]]}', 2, true],
    ['{"a":"\\\\\\"[[[["}', 1, false],
    ['["[[[', 0, true],
    ['[1,"[[[', 1, false],
  ])('%s deeper than %i: %s', (text, max, expected) => {
    expect(nestsDeeperThan(text, max)).toBe(expected);
  });

  it('answers as the full scan does, whether the brackets are few (not read through) or many', () => {
    // Texts of brackets, quotes, backslashes and a letter, JSON or not: the count's shortcut may only ever
    // answer "not deeper", and only when the scan says so too.
    let seed = 19;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['[', ']', '{', '}', '"', '\\', 'a', ','];
    let shortcuts = 0;
    for (let k = 0; k < 5000; k++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * 8)]).join(
        '',
      );
      const max = Math.floor(random() * 6);
      const openings = [...text].filter((c) => c === '[' || c === '{').length;
      if (openings <= max) shortcuts++;
      expect(nestsDeeperThan(text, max), `${text} deeper than ${max}`).toBe(scanDepth(text, max));
    }
    expect(shortcuts).toBeGreaterThan(500);
  });

  it('walks 4 MB nested 2 million deep in one pass, stopping at the limit', () => {
    expect(nestsDeeperThan('['.repeat(2_000_000) + ']'.repeat(2_000_000), 64)).toBe(true);
  });
});

describe('cannotPoison', () => {
  it.each([
    '{"__proto__":{"isAdmin":true}}',
    '{"a":[{"\\u005f_proto__":{}}]}',
    '{"_\\u005Fproto__":1}',
    '{"__pr\\u006fto__":1}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"\\u0063onstructor":{"prototype":{}}}',
  ])('leaves %s to the parser that refuses it', (text) => {
    expect(cannotPoison(text)).toBe(false);
  });

  it('lets a terminal batch through, whose keys are plain', () => {
    const batch = { seq: 1, records: [{ type: 'gps', time: '2026-11-27T10:00:00.000Z', lat: 35.6, lng: 139.7 }] };
    expect(cannotPoison(JSON.stringify(batch))).toBe(true);
  });

  it('never lets through a text whose parse holds either key, at any depth', () => {
    // Keys built from pieces of the two words, escapes among them: every text it lets through is checked.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pieces = ['_', '__', 'proto', 'pr', 'oto', 'constructor', 'con', 'structor', '\\u005f', '\\u0063', 'a'];
    const hasKey = (v: unknown): boolean =>
      typeof v === 'object' &&
      v !== null &&
      (Object.prototype.hasOwnProperty.call(v, '__proto__') ||
        Object.prototype.hasOwnProperty.call(v, 'constructor') ||
        Object.values(v).some(hasKey));
    let through = 0;
    for (let k = 0; k < 5000; k++) {
      const key = Array.from(
        { length: 1 + Math.floor(random() * 4) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      const text = `{"x":[{"${key}":{"y":1}}]}`;
      const value: unknown = JSON.parse(text);
      if (!cannotPoison(text)) continue;
      through++;
      expect(hasKey(value), text).toBe(false);
    }
    expect(through).toBeGreaterThan(1000);
  });
});
