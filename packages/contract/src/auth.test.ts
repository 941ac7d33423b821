import { describe, expect, it } from 'vitest';
import { fieldErrors, LoginRequest, password, validationMessages as m } from './index.js';

describe('LoginRequest', () => {
  it('accepts a username and a password', () => {
    expect(LoginRequest.parse({ username: ' admin ', password: 'x' })).toEqual({ username: 'admin', password: 'x' });
  });
  it('answers missing fields with the required message per field', () => {
    const r = LoginRequest.safeParse({});
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({ username: m.required, password: m.required });
  });
  it('refuses wrong types and huge strings', () => {
    expect(LoginRequest.safeParse({ username: 1, password: [] }).success).toBe(false);
    expect(LoginRequest.safeParse({ username: 'a'.repeat(10_000), password: 'x' }).success).toBe(false);
  });
});

describe('password field', () => {
  it('uses the spec messages for length', () => {
    expect(password().safeParse('short').error?.issues[0]?.message).toBe(m.min);
    expect(password().safeParse('x'.repeat(33)).error?.issues[0]?.message).toBe(m.max);
    expect(password().safeParse('x'.repeat(8)).success).toBe(true);
    expect(password().safeParse('x'.repeat(32)).success).toBe(true);
  });
});
