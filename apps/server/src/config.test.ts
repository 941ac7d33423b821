import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, repoRoot } from './config.js';

describe('loadConfig', () => {
  it('fills defaults from an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: 'localhost',
      production: false,
      SIMULATE: true,
      publicUrl: 'http://localhost:3000',
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toBe(path.join(repoRoot, 'data'));
  });

  it('reads and converts set values, and treats blank ones as unset', () => {
    const c = loadConfig({
      PORT: '8080',
      NODE_ENV: 'production',
      SIMULATE: '0',
      DATABASE_URL: '',
      PUBLIC_URL: 'https://fleet.example.jp/',
    });
    expect(c).toMatchObject({ PORT: 8080, production: true, SIMULATE: false, publicUrl: 'https://fleet.example.jp' });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it.each(['abc', '70000', '-1', '3.5'])('refuses PORT=%s with a message naming PORT', (PORT) => {
    expect(() => loadConfig({ PORT })).toThrow(/Invalid configuration:\n\s+PORT: /);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', DATABASE_URL: 'not a url', SIMULATE: 'maybe' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*SIMULATE/,
    );
  });

  it.each([
    ['0', false],
    ['false', false],
    ['1', 1],
    ['true', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1,loopback', ['10.0.0.0/8', '192.168.1.1', 'loopback']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s as a hop count or proxy addresses, never "trust every hop"', (TRUST_PROXY, expected) => {
    expect(loadConfig({ TRUST_PROXY }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses internal webhook receivers unless WEBHOOK_ALLOW_PRIVATE is 1 or true', () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '0' }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it.each(['yes', '-1', '100', 'proxy.example.jp', '10.0.0.1;rm', '10.0.0.0/33'])(
    'refuses TRUST_PROXY=%s',
    (TRUST_PROXY) => {
      expect(() => loadConfig({ TRUST_PROXY })).toThrow(/TRUST_PROXY/);
    },
  );

  it('has request, header, connection and keep-alive timeouts, and refuses headers allowed longer than the request', () => {
    expect(loadConfig({})).toMatchObject({
      REQUEST_TIMEOUT_MS: 30_000,
      HEADERS_TIMEOUT_MS: 10_000,
      CONNECTION_TIMEOUT_MS: 120_000,
      KEEP_ALIVE_TIMEOUT_MS: 72_000,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('refuses a second TCP link by default; TERMINAL_TAKEOVER takes refuse or replace, nothing else', () => {
    expect(loadConfig({}).TERMINAL_TAKEOVER).toBe('refuse');
    expect(loadConfig({ TERMINAL_TAKEOVER: 'replace' }).TERMINAL_TAKEOVER).toBe('replace');
    expect(() => loadConfig({ TERMINAL_TAKEOVER: 'newest' })).toThrow(/TERMINAL_TAKEOVER/);
  });
});
