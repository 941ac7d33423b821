import {
  carDataSync,
  carGetBatteryLog,
  carGetConnectionLog,
  carGetEngineLog,
  carGetErrorLog,
  carGetGpsLog,
  carGetLatestState,
  carGetObd2Log,
  carGetSensorLog,
  type Capabilities,
  type LogKind,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { addressesAt } from '../geocode/addresses.js';
import type { Access } from '../access/access.js';
import { readsLatest } from '../access/terminal-time.js';
import {
  findLatestState,
  findLiveRecord,
  rebuildLatestState,
  terminalOfCar,
  type LiveRecord,
} from './latest-state.repository.js';
import { accountNames, findLogPage, ShortWindows, type LogPage, type LogRow } from './log.repository.js';
import { readRoute } from './route-read.js';
import { simplifyRoute } from './simplify.js';

/**
 * Read at most this many points before simplifying (twice the points asked for, and at least a day of
 * one-second points, 100,000, on PostgreSQL; 20,000 on the embedded database, whose process also runs
 * every query); beyond it the read itself thins by time, keeping the sharpest turns of each slice
 * (log.repository.ts findRouteSlices). Simplifying runs in one go (its cost grows with the points), so this also
 * bounds how long it holds the process.
 */
const gpsReadCap = (maxPoints: number, embedded: boolean) => Math.max(embedded ? 20_000 : 100_000, 2 * maxPoints);

/** Where a rebuilt state is pushed (live/live-hub.ts; passed in so telemetry does not import live). */
interface StatePublisher {
  publish(record: LiveRecord): Promise<void>;
}

export function registerTelemetryRoutes(app: FastifyInstance, ctx: AppContext, live: StatePublisher) {
  const { db } = ctx;
  /** Visible (another company's terminal is "not found"), and only the time it served the caller's company. */
  const readableWindows = async (access: Access, carDataId: string) => {
    await access.see('car_data_id', carDataId);
    return access.windows(carDataId);
  };
  // Which terminals' logs lately had fewer rows in a page's first days than asked for (log.repository.ts).
  const shortWindows = new ShortWindows();
  const page = async <K extends LogKind, R>(access: Access, kind: K, q: LogPage, map: (r: LogRow<K>) => R) => {
    const windows = await readableWindows(access, q.car_data_id);
    const { rows, more } = await findLogPage(db, kind, { ...q, windows }, shortWindows);
    const last = more ? (rows.at(-1) as { id: number; recorded_at: Date }) : undefined;
    return {
      list: rows.map(map),
      next_before_id: last ? Number(last.id) : null,
      next_before_at: last ? last.recorded_at : null,
    };
  };
  const canSee = (c: Capabilities) => c.seeCarsAndCustomers;

  registerCall(app, ctx, carGetConnectionLog, {
    auth: 'user',
    allow: canSee,
    handler: ({ body, access }) =>
      page(access, 'connection', body, (r) => ({ id: Number(r.id), recorded_at: r.recorded_at, state: r.state })),
  });

  registerCall(app, ctx, carGetEngineLog, {
    auth: 'user',
    allow: canSee,
    handler: async ({ body, access }) => {
      const result = await page(access, 'engine', body, (r) => r);
      const names = await accountNames(
        db,
        result.list.flatMap((r) => (r.account_id ? [r.account_id] : [])),
      );
      return {
        ...result,
        list: result.list.map((r) => ({
          id: Number(r.id),
          recorded_at: r.recorded_at,
          running: r.running,
          engine_line: r.engine_line,
          command: r.command,
          command_id: r.command_id === null ? null : Number(r.command_id),
          account_id: r.account_id,
          account_name: r.account_id ? (names.get(r.account_id) ?? null) : null,
        })),
      };
    },
  });

  registerCall(app, ctx, carGetErrorLog, {
    auth: 'user',
    allow: canSee,
    handler: ({ body, access }) =>
      page(access, 'error', body, (r) => ({
        id: Number(r.id),
        recorded_at: r.recorded_at,
        error_type: r.error_type,
        status_code: r.status_code,
        detail: r.detail,
      })),
  });

  registerCall(app, ctx, carGetBatteryLog, {
    auth: 'user',
    allow: canSee,
    handler: ({ body, access }) =>
      page(access, 'battery', body, (r) => ({
        id: Number(r.id),
        recorded_at: r.recorded_at,
        voltage: r.voltage,
        percentage: r.percentage,
      })),
  });

  registerCall(app, ctx, carGetSensorLog, {
    auth: 'user',
    allow: canSee,
    handler: ({ body, access }) =>
      page(access, 'sensor', body, (r) => ({
        id: Number(r.id),
        recorded_at: r.recorded_at,
        vibration: r.vibration,
        readings: r.readings,
      })),
  });

  registerCall(app, ctx, carGetObd2Log, {
    auth: 'user',
    allow: canSee,
    handler: ({ body, access }) =>
      page(access, 'obd2', body, (r) => ({ id: Number(r.id), recorded_at: r.recorded_at, pids: r.pids })),
  });

  registerCall(app, ctx, carGetGpsLog, {
    auth: 'user',
    allow: canSee,
    handler: async ({ body, access }) => {
      const filter = { ...body, windows: await readableWindows(access, body.car_data_id) };
      const embedded = !ctx.config.DATABASE_URL;
      const { points, total } = await readRoute(db, filter, gpsReadCap(body.max_points, embedded), embedded);
      const kept = simplifyRoute(points, body.max_points);
      // The route shows the addresses known already and queues a few hundred more (addresses.ts QUEUE_PER_READ).
      const addressOf = await addressesAt(db, kept, { queue: true });
      return {
        list: kept.map((p) => ({
          recorded_at: p.recorded_at,
          lat: p.lat,
          lng: p.lng,
          speed: p.speed,
          heading: p.heading,
          address: addressOf(p.lat, p.lng),
        })),
        total,
        simplified: kept.length < total,
      };
    },
  });

  registerCall(app, ctx, carGetLatestState, {
    auth: 'user',
    allow: canSee,
    handler: async ({ body, access }) => {
      await access.see('car_data_id', body.car_data_id);
      // As the vehicle screens read it: no field group of another company's time.
      const state = await findLatestState(db, body.car_data_id, access.company);
      const addressOf = state ? await addressesAt(db, [state], { queue: true }) : null;
      return { state, address: state && addressOf ? addressOf(state.lat, state.lng) : null };
    },
  });

  registerCall(app, ctx, carDataSync, {
    auth: 'user',
    allow: canSee,
    handler: async ({ body, access }) => {
      await access.see('car_id', body.car_id);
      if ((await terminalOfCar(db, body.car_id)) !== body.car_data_id) throw notFound();
      const record = await db.transaction().execute(async (trx) => {
        const rebuilt = await rebuildLatestState(trx, body.car_data_id);
        return rebuilt && findLiveRecord(trx, body.car_data_id);
      });
      // Each stream takes what its company may see of it, by the owner the record names (live.routes.ts).
      if (record) await live.publish(record);
      // A state last reported for the terminal's previous company is not the new company's to see;
      // answered as the company reads it: no field group of another company's time.
      const own = record && readsLatest(record, await access.windows(body.car_data_id));
      return { ok: true, state: own ? await findLatestState(db, body.car_data_id, access.company) : null };
    },
  });
}
