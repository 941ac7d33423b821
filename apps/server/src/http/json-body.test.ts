import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-body.js';

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

  it('walks 4 MB nested 2 million deep in one pass, stopping at the limit', () => {
    expect(nestsDeeperThan('['.repeat(2_000_000) + ']'.repeat(2_000_000), 64)).toBe(true);
  });
});
