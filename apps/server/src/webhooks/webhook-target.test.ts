import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress, namesInternalTarget } from './webhook-target.js';

describe('addressRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['100::1', 'discard'],
    // IPv4 inside IPv6: judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    // The deprecated IPv4-compatible form and unassigned space are no Internet addresses.
    ['::7f00:1', 'unassigned'],
    ['4000::1', 'unassigned'],
    ['[::1]', 'loopback'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2404:6800:4004:80a::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::8.8.8.8',
    '2002:5db8:d822::1',
    '[2606:4700:4700::1111]',
  ])('%s is public', (address) => {
    expect(addressRange(address)).toBe('public');
    expect(isPublicAddress(address)).toBe(true);
  });

  it('reads only strict addresses: the historic IPv4 spellings are names here (WHATWG URL normalises them first)', () => {
    for (const text of [
      '127.1',
      '0x7f000001',
      '2130706433',
      '0177.0.0.1',
      'localhost',
      'example.jp',
      '',
      '1.2.3.4.5',
    ]) {
      expect(addressRange(text), text).toBeNull();
      expect(isPublicAddress(text), text).toBe(false);
    }
  });
});

describe('namesInternalTarget', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://0x7F.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.000.000.001/',
    'https://１２７.０.０.１/',
    'http://0/',
    'http://0.0.0.0:8080/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://localhost/',
    'http://LocalHost./',
    'http://a.b.localhost:3000/',
    'http://user:pw@10.0.0.1/',
  ])('%s names an internal target', (url) => {
    expect(namesInternalTarget(url)).toBe(true);
  });

  it.each([
    'https://hooks.example.jp/fleet',
    'https://localhost.example.jp/',
    'https://mylocalhost/',
    'http://93.184.216.34/',
    'http://[2606:4700:4700::1111]:8443/',
    'not a url',
  ])('%s does not, by itself', (url) => {
    expect(namesInternalTarget(url)).toBe(false);
  });
});
