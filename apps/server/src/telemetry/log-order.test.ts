import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { beyondRow, logOrder, pageWindow } from './log-order.js';

// Compiles SQL only; never connects.
const db = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const compiled = (at?: Date | string) => beyondRow('gps_logs', '<', { id: 7, at }, 'imei-1').compile(db);

describe('beyondRow', () => {
  it("bounds the lookup and the rows by the cursor's time, a millisecond either side", () => {
    const { sql, parameters } = compiled('2026-11-26T10:00:00.123Z');
    expect(parameters).toContain('2026-11-26T10:00:00.122Z');
    expect(parameters).toContain('2026-11-26T10:00:00.124Z');
    // The rows: to the end of the cursor's UTC day (the partitions), and to its minute (the index).
    expect(sql).toMatch(
      /\) AND recorded_at < \$\d+::timestamptz AND log_minute\(recorded_at\) <= log_minute\(\$\d+::timestamptz\)$/,
    );
    expect(parameters).toContain('2026-11-27T00:00:00.000Z');
    // Bounded by the time, the rows compare by (time, id): the same order, no minute worked out a row.
    expect(sql).toMatch(/^\(recorded_at, id\) < \(SELECT c\.recorded_at, c\.id FROM/);
  });
  it("bounds the days by the cursor's UTC day, whatever its time in it, before 1970 as well", () => {
    const cases: [Date | string, string][] = [
      ['2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z'],
      ['2026-11-26T23:59:59.999Z', '2026-11-27T00:00:00.000Z'],
      ['1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z'],
      ['1969-12-30T12:00:00.000Z', '1969-12-31T00:00:00.000Z'],
    ];
    for (const [at, dayEnd] of cases) expect(compiled(at).parameters, String(at)).toContain(dayEnd);
    // Oldest first (a route's next chunk): from the start of the cursor's day.
    const after = beyondRow('gps_logs', '>', { id: 7, at: '2026-11-26T10:00:00.123Z' }, 'imei-1').compile(db);
    expect(after.sql).toMatch(
      /\) AND recorded_at >= \$\d+::timestamptz AND log_minute\(recorded_at\) >= log_minute\(\$\d+::timestamptz\)$/,
    );
    expect(after.parameters).toContain('2026-11-26T00:00:00.000Z');
    // The last day PostgreSQL reads has no day after it: the cursor's own time bounds it.
    const last = compiled(new Date('9999-12-31T23:59:59.998Z'));
    expect(last.sql).toMatch(/\) AND recorded_at <= \$\d+::timestamptz AND log_minute/);
    expect(last.parameters).not.toContain('+010000-01-01T00:00:00.000Z');
  });
  it('bounds a log ordered by the time (all but GPS) by the instant alone, no minute', () => {
    const before = beyondRow('battery_logs', '<', { id: 7, at: '2026-11-26T10:00:00.123Z' }, 'imei-1').compile(db);
    expect(before.sql).not.toContain('log_minute');
    expect(before.sql).toMatch(/^\(recorded_at, id\) < \(SELECT c\.recorded_at, c\.id FROM "battery_logs" c WHERE/);
    expect(before.sql).toMatch(/\) AND recorded_at <= \$\d+::timestamptz$/);
    expect(before.parameters.at(-1)).toBe('2026-11-26T10:00:00.124Z');
    const after = beyondRow('engine_logs', '>', { id: 7, at: '2026-11-26T10:00:00.123Z' }, 'imei-1').compile(db);
    expect(after.sql).toMatch(/\) AND recorded_at >= \$\d+::timestamptz$/);
    expect(after.parameters.at(-1)).toBe('2026-11-26T10:00:00.122Z');
    const byId = beyondRow('battery_logs', '<', { id: 7 }, 'imei-1').compile(db);
    expect(byId.sql).toBe(
      '(recorded_at, id) < (SELECT c.recorded_at, c.id FROM "battery_logs" c WHERE c.id = $1 AND c.car_data_id = $2)',
    );
  });
  it('orders GPS by the minute first and the other logs by the time', () => {
    expect(logOrder('gps_logs').newestFirstText).toBe('log_minute(recorded_at) DESC, recorded_at DESC, id DESC');
    for (const table of ['battery_logs', 'engine_logs', 'connection_logs', 'sensor_logs', 'obd2_logs', 'error_logs'])
      expect(logOrder(table).newestFirstText, table).toBe('recorded_at DESC, id DESC');
  });
  it('looks by the id alone without a time, or with one at the edge of the years PostgreSQL reads', () => {
    for (const at of [
      undefined,
      'not a time',
      new Date('9999-12-31T23:59:59.999Z'),
      new Date('0001-01-01T00:00:00Z'),
    ]) {
      const { sql, parameters } = compiled(at);
      expect(parameters).toEqual([7, 'imei-1']);
      expect(sql).not.toContain('timestamptz');
      expect(sql).toMatch(/^\(log_minute\(recorded_at\), recorded_at, id\) < \(SELECT log_minute\(c\.recorded_at\)/);
    }
  });
});

describe('pageWindow', () => {
  const now = new Date('2026-11-27T09:30:00Z');
  const all = { from: null, to: null };
  it("starts at the day before the reference's: the cursor's time, else the range's end, else now", () => {
    expect(pageWindow(all, undefined, now)?.toISOString()).toBe('2026-11-26T00:00:00.000Z');
    const range = { from: '2026-10-01T00:00:00Z', to: '2026-11-10T05:00:00Z' };
    expect(pageWindow(range, undefined, now)?.toISOString()).toBe('2026-11-09T00:00:00.000Z');
    expect(pageWindow(range, '2026-11-03T23:59:59.999Z', now)?.toISOString()).toBe('2026-11-02T00:00:00.000Z');
    expect(pageWindow(all, new Date('1969-12-31T12:00:00Z'), now)?.toISOString()).toBe('1969-12-30T00:00:00.000Z');
  });
  it('is none when the range starts inside it or the reference is outside the years PostgreSQL reads', () => {
    expect(pageWindow({ from: '2026-11-26T00:00:00Z', to: '2026-11-27T00:00:00Z' }, undefined, now)).toBeNull();
    expect(pageWindow({ from: '2026-11-25T23:59:59Z', to: '2026-11-27T00:00:00Z' }, undefined, now)).not.toBeNull();
    expect(pageWindow(all, '0001-01-01T10:00:00Z', now)).toBeNull();
    expect(pageWindow(all, '+010000-01-02T00:00:00Z', now)).toBeNull();
    expect(pageWindow(all, 'not a time', now)).toBeNull();
  });
});
