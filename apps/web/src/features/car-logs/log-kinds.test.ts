import { carGetConnectionLog, carGetGpsLog, defineCall } from '@fleet/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { serveApi } from '../../testing/serve-api';
import { logKindViews, pagedLog, routeLog } from './log-kinds';

afterEach(() => vi.restoreAllMocks());
const range = { car_data_id: '356307042441013', from: '2024-04-01T00:00', to: '2024-04-02T00:00' };
const signal = new AbortController().signal;

describe('log loaders', () => {
  it('a paged log sends the period and the page, and answers its rows and the next page', async () => {
    const api = serveApi({
      '/api/car_get_connection_log': [
        200,
        {
          list: [{ id: 7, recorded_at: '2024-04-01T01:00:00Z', state: 'connected' }],
          next_before_id: 7,
          next_before_at: '2024-04-01T01:00:00.000Z',
        },
      ],
    });
    const cursor = { before_id: 9, before_at: '2024-04-01T02:00:00.000Z' };
    const page = await pagedLog(carGetConnectionLog)({ ...range, limit: 1000, ...cursor }, signal);
    expect(api.bodiesOf('/api/car_get_connection_log')).toEqual([{ ...range, limit: 1000, ...cursor }]);
    expect(page.next_before_id).toBe(7);
    expect(page.next_before_at).toBe('2024-04-01T01:00:00.000Z');
    expect(page.list).toMatchObject([{ id: 7, state: 'connected' }]);
  });

  it('the GPS route asks for points, not pages', async () => {
    const api = serveApi({ '/api/car_get_gps_log': [200, { list: [], total: 0, simplified: false }] });
    await routeLog(carGetGpsLog, 20_000)({ ...range, limit: 1000 }, signal);
    expect(api.bodiesOf('/api/car_get_gps_log')).toEqual([{ ...range, max_points: 20_000 }]);
    expect(logKindViews.find((v) => v.kind === 'gps')!.oldestFirst).toBe(true);
  });

  it('compiles only with a call whose request takes what is sent', () => {
    const needsMore = defineCall(
      '/api/x',
      z.object({ car_data_id: z.string(), kind: z.string() }),
      z.object({ list: z.array(z.object({ recorded_at: z.string() })) }),
    );
    // @ts-expect-error: the request wants `kind`, which the panel never sends.
    expect(typeof pagedLog(needsMore)).toBe('function');
    // @ts-expect-error: the same for the route.
    expect(typeof routeLog(needsMore, 10)).toBe('function');
  });
});
