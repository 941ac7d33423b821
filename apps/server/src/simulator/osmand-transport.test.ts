import { describe, expect, it } from 'vitest';
import { osmandQueries } from './osmand-transport.js';

describe('osmandQueries', () => {
  it('turns each GPS fix into a query with knots, ms timestamp and the battery and ignition reported before it', () => {
    const time = '2026-01-16T00:00:05.000Z';
    const queries = osmandQueries([
      { type: 'engine', time, running: 'on' },
      { type: 'battery', time, voltage: 12.4, percentage: 80.4 },
      { type: 'gps', time, lat: 35.6, lng: 139.7, speed: 18.52, heading: 90, accuracy: 5 },
      { type: 'sensor', time, vibration: 0.2 },
      { type: 'gps', time, lat: 35.61, lng: 139.71 },
    ]);
    expect(queries.map((q) => Object.fromEntries(q))).toEqual([
      {
        lat: '35.6',
        lon: '139.7',
        timestamp: String(Date.parse(time)),
        speed: '10.00',
        bearing: '90',
        accuracy: '5',
        batt: '80',
        ignition: 'true',
      },
      { lat: '35.61', lon: '139.71', timestamp: String(Date.parse(time)), batt: '80', ignition: 'true' },
    ]);
    expect(osmandQueries([{ type: 'battery', time, percentage: 50 }])).toEqual([]);
  });
});
