import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, findUnstorableInput, isStorableInput } from './input-guard.js';

const nested = (levels: number): unknown => (levels === 0 ? 'bottom' : { a: nested(levels - 1) });

describe('findUnstorableInput', () => {
  it.each<[string, unknown, string | undefined]>([
    [
      'a plain record',
      { type: 'gps', time: '2026-11-26T09:00:00.000Z', lat: 35.6, lng: 139.7, speed: null },
      undefined,
    ],
    ['Japanese and a surrogate pair', { detail: '日本語 😀', '鍵😀': ['x'] }, undefined],
    ['zero, -0, NaN-free small numbers', { a: 0, b: -0, c: 1e-37, d: -1e-37, e: 1e300 }, undefined],
    ['U+0000 in a text', { a: 'x', b: { c: 'y\u0000' } }, 'b.c'],
    ['U+0000 in a key', { ['k\u0000']: 1 }, 'k\ufffd'],
    ['a lone high surrogate', { a: ['ok', 'x\ud800'] }, 'a.1'],
    ['a lone low surrogate', { a: '\udc00x' }, 'a'],
    ['a high surrogate before another high one', { a: '\ud800\ud800\udc00' }, 'a'],
    ['a pair then a lone low surrogate', { a: '\udbff\udc00\udc00' }, 'a'],
    ['a number a real cannot hold', { a: { b: 1e-300 } }, 'a.b'],
    ['a negative one', { a: -1e-38 }, 'a'],
    ['the root itself', '\u0000', '_'],
    ['nesting at the limit', nested(MAX_INPUT_DEPTH), undefined],
    ['nesting past the limit', nested(MAX_INPUT_DEPTH + 1), Array(MAX_INPUT_DEPTH).fill('a').join('.')],
  ])('%s', (_name, input, path) => {
    expect(findUnstorableInput(input)).toBe(path);
    expect(isStorableInput(input)).toBe(path === undefined);
  });

  it('takes a million levels without running out of stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(findUnstorableInput(deep)).toBe(Array(MAX_INPUT_DEPTH).fill('0').join('.'));
  });

  it('counts depth from where it is asked (a record inside its batch)', () => {
    const record = nested(MAX_INPUT_DEPTH);
    expect(isStorableInput(record, 0)).toBe(true);
    expect(isStorableInput(record, 1)).toBe(false);
  });

  it('with strings taken as storable (an escape-free body), still checks numbers and depth', () => {
    expect(isStorableInput({ a: 'y\u0000', ['k\ud800']: 'x' }, 0, false)).toBe(true);
    expect(isStorableInput({ a: 'y\u0000' }, 0, true)).toBe(false);
    expect(isStorableInput({ a: { b: 1e-300 } }, 0, false)).toBe(false);
    expect(isStorableInput(nested(MAX_INPUT_DEPTH), 0, false)).toBe(true);
    expect(isStorableInput(nested(MAX_INPUT_DEPTH + 1), 0, false)).toBe(false);
  });
});
