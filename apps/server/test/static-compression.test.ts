import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/config.js';
import { createTestApp, type TestApp } from './helper.js';

/** A console build as Vite writes it (a hashed script, a hashed stylesheet, index.html), precompressed as the build does. */
let webRoot = '';
let t: TestApp;
const script = `export const text = ${JSON.stringify('フリートコンソール '.repeat(400))};\n`;

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'fleet-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), `<!doctype html><title>x</title>${'<p>console</p>'.repeat(200)}`);
  writeFileSync(path.join(webRoot, 'assets/index-Ab12Cd34.js'), script);
  writeFileSync(path.join(webRoot, 'assets/tiny-Zz99Yy88.css'), 'a{}');
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/precompress.mjs'), webRoot], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  t = await createTestApp({ webRoot });
});
afterAll(async () => {
  await t?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('the console build, precompressed', () => {
  it('the build writes .br and .gz beside text assets worth compressing, not beside tiny ones', () => {
    expect(existsSync(path.join(webRoot, 'assets/index-Ab12Cd34.js.br'))).toBe(true);
    expect(existsSync(path.join(webRoot, 'assets/index-Ab12Cd34.js.gz'))).toBe(true);
    expect(existsSync(path.join(webRoot, 'assets/tiny-Zz99Yy88.css.br'))).toBe(false);
  });

  it('brotli when accepted, else gzip, else the file; Vary: accept-encoding; immutable for hashed files', async () => {
    const url = '/assets/index-Ab12Cd34.js';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(script);
  });

  it('index.html is compressed too and revalidated (no-cache)', async () => {
    const page = await t.app.inject({ url: '/index.html', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
