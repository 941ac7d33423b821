import { describe, expect, it } from 'vitest';
import { addressAllowed, invalidAddressEntries, parseAddressList } from './address-list.js';
import { DeviceForm } from './device.js';
import { fieldMessages } from './master-fields.js';

const form = (ipaddr: string) => ({
  car_device_id: 'dev-1',
  password: 'terminal-pass-1',
  car_data_id: '358409100000001',
  ipaddr,
});

describe('a terminal allow-list (ipaddr)', () => {
  it('takes an address, a CIDR block and comma-separated lists of both, IPv4 and IPv6', () => {
    for (const ok of [
      '203.0.113.5',
      '203.0.113.0/24',
      '2001:db8::/32',
      '2001:db8::1',
      '203.0.113.0/24, 198.51.100.7,2001:db8:1::/48',
      '::ffff:203.0.113.5',
      '0.0.0.0/0',
    ]) {
      expect(parseAddressList(ok), ok).not.toBeNull();
      const parsed = DeviceForm.safeParse(form(ok));
      expect(parsed.success, ok).toBe(true);
    }
  });

  it('refuses anything else with the field message naming the accepted forms', () => {
    for (const bad of [
      'x',
      '203.0.113.0/33',
      '2001:db8::/129',
      '203.0.113.0/',
      '203.0.113.0/2a',
      '127.1',
      '0x7f000001',
      '0177.0.0.1',
      'fe80::1%eth0',
      '203.0.113.5, nowhere',
      '203.0.113.5;198.51.100.7',
    ]) {
      expect(parseAddressList(bad), bad).toBeNull();
      const parsed = DeviceForm.safeParse(form(bad));
      expect(parsed.success, bad).toBe(false);
      expect(
        parsed.error?.issues.map((i) => i.message),
        bad,
      ).toEqual([fieldMessages.ipaddr]);
    }
    expect(invalidAddressEntries('203.0.113.5, nowhere, 10.0.0.0/40')).toEqual(['nowhere', '10.0.0.0/40']);
  });

  it('lets in the sources inside the list only; empty lets in any', () => {
    const list = '203.0.113.0/24, 198.51.100.7, 2001:db8::/32';
    expect(addressAllowed(list, '203.0.113.200')).toBe(true);
    expect(addressAllowed(list, '::ffff:203.0.113.9')).toBe(true);
    expect(addressAllowed(list, '198.51.100.7')).toBe(true);
    expect(addressAllowed(list, '2001:db8:5::9')).toBe(true);
    expect(addressAllowed(list, '203.0.114.1')).toBe(false);
    expect(addressAllowed(list, '198.51.100.8')).toBe(false);
    expect(addressAllowed(list, '2001:db9::1')).toBe(false);
    expect(addressAllowed(list, undefined)).toBe(false);
    expect(addressAllowed('', '192.0.2.1')).toBe(true);
    expect(addressAllowed('', undefined)).toBe(true);
  });

  it('lets in nothing when a stored list does not parse (written around the form)', () => {
    expect(addressAllowed('203.0.113.0/24, nowhere', '203.0.113.1')).toBe(false);
    expect(addressAllowed('garbage', '192.0.2.1')).toBe(false);
  });
});
