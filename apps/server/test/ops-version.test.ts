import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from '../src/ops/version.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('probes and version', () => {
  it('HEAD /healthz answers like GET, without a body (monitors probe with HEAD)', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('GET /api/version: public, the version and the commit only', async () => {
    const res = await t.app.inject({ url: '/api/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: buildInfo().version, commit: buildInfo().commit });
    expect(buildInfo().version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
