import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, scanDepth } from './json-body.js';

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
