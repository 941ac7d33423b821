import { describe, expect, it } from 'vitest';
import { hashDeviceSecret, verifyDeviceSecret } from './device-secret.js';

describe('device secrets', () => {
  it('verifies the right secret and refuses a wrong one', () => {
    const stored = hashDeviceSecret('terminal-secret-01');
    expect(stored).toMatch(/^hmac256\$[^$]+\$[^$]+$/);
    expect(verifyDeviceSecret('terminal-secret-01', stored)).toBe(true);
    expect(verifyDeviceSecret('terminal-secret-02', stored)).toBe(false);
    expect(verifyDeviceSecret('', stored)).toBe(false);
  });

  it('salts every hash, and never stores the secret', () => {
    const [a, b] = [hashDeviceSecret('same'), hashDeviceSecret('same')];
    expect(a).not.toBe(b);
    expect(a).not.toContain('same');
    expect(verifyDeviceSecret('same', b)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['another algorithm', 'scrypt$17$8$1$c2FsdA==$a2V5'],
    ['a missing mac', 'hmac256$c2FsdA==$'],
    ['a truncated mac', 'hmac256$c2FsdA==$AAAA'],
  ])('refuses %s as the stored value', (_label, stored) => {
    expect(verifyDeviceSecret('secret', stored)).toBe(false);
  });
});
