import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, repoRoot } from './config.js';

describe('loadConfig', () => {
  it('fills defaults from an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 3000, HOST: 'localhost', production: false, SIMULATE: true, publicUrl: 'http://localhost:3000' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toBe(path.join(repoRoot, 'data'));
  });

  it('reads and converts set values, and treats blank ones as unset', () => {
    const c = loadConfig({ PORT: '8080', NODE_ENV: 'production', SIMULATE: '0', DATABASE_URL: '', PUBLIC_URL: 'https://fleet.example.jp/' });
    expect(c).toMatchObject({ PORT: 8080, production: true, SIMULATE: false, publicUrl: 'https://fleet.example.jp' });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it.each(['abc', '70000', '-1', '3.5'])('refuses PORT=%s with a message naming PORT', (PORT) => {
    expect(() => loadConfig({ PORT })).toThrow(/Invalid configuration:\n\s+PORT: /);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', DATABASE_URL: 'not a url', SIMULATE: 'maybe' })).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*SIMULATE/);
  });
});
