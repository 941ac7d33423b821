import { describe, expect, it } from 'vitest';
import { parseBasic } from './device-auth.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseBasic', () => {
  it('reads id and password, splitting at the first colon', () => {
    expect(parseBasic(`Basic ${b64('D-demo-01:terminal-secret-01')}`)).toEqual({
      id: 'D-demo-01',
      password: 'terminal-secret-01',
    });
    expect(parseBasic(`basic ${b64('dev:a:b')}`)).toEqual({ id: 'dev', password: 'a:b' });
  });
  it.each([
    undefined,
    '',
    'Bearer abc',
    `Basic ${b64('no-colon')}`,
    `Basic ${b64(':pw')}`,
    `Basic ${b64('id:')}`,
    'Basic !!!',
  ])('refuses %j', (h) => {
    expect(parseBasic(h)).toBeNull();
  });
});
