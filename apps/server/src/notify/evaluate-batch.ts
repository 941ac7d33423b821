import { notifyItemKeys, notifyItems, type DeviceRecord, type Position } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { systemClock, type Clock } from '../outbox/index.js';
import { deliver, type Finding } from './deliver.js';
import { foldMotion, type Motion } from './motion.js';
import { lockMotions, saveMotions } from './motion.repository.js';
import { findCarsByDataIds, latestPositions, loadVehicleAreas, type NotifyCar } from './notification.repository.js';
import { subscribersOfCars, type Subscriber } from './settings.repository.js';
import { findBatchEvents, inTimeOrder } from './telemetry-rules.js';
import { queueTerminalEvents } from '../webhooks/terminal-events.js';
import { judgeZones, type ZoneFinding } from '../zones/judge-batch.js';

export interface NotifyOptions {
  /** Base of the links in the mail (config.publicUrl). */
  publicUrl: string;
  clock?: Clock;
}

/** A crossing for an account's own settings (on エリア警告's switch), or for a group's (its own switches). */
const zoneAlertFinding = (z: ZoneFinding, sub: Subscriber): Finding => ({
  item: sub.zones === null ? 'warn_area' : z.kind,
  what: z.what,
  at: z.at,
  position: z.position,
  detail: { zone_id: z.zone_id, zone_name: z.zone_name, kind: z.kind },
  inInbox: true,
});

export const TELEMETRY_ITEMS = notifyItemKeys.filter((k) => notifyItems[k].trigger === 'telemetry');

/** One stored batch to judge. */
export interface BatchToJudge {
  carDataId: string;
  records: readonly DeviceRecord[];
  /** Each record's time (epoch ms) at its index, when the caller has read them; else they are read here. */
  times?: readonly number[];
  /** When it was received: the time of its mails and of the cooldown. */
  now: Date;
  /** The terminal's latest position once the batch was stored, when the caller has it (else it is read). */
  lastPosition?: Position | null;
}

/**
 * Judges one stored batch of a terminal (IMEI) for every account that wants
 * to hear about its vehicle, and queues the mails; also keeps the motion state
 * the minute sweep reads. Pass the gateway's transaction to make telemetry and
 * mail one unit (a retried batch is then never judged twice), or the database
 * to run in a transaction of its own after the batch committed.
 * Returns the number of mails queued.
 */
export async function evaluateBatch(
  db: Db,
  carDataId: string,
  records: readonly DeviceRecord[],
  opts: NotifyOptions,
): Promise<number> {
  if (!records.length) return 0;
  const now = (opts.clock ?? systemClock)();
  const run = (trx: Db) => evaluateBatches(trx, [{ carDataId, records, now }], opts.publicUrl);
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * What the judgement reads before anything else, when the caller read it in
 * its own statement (the gateway's, see storeAndRead): the terminals' motion
 * states, locked by that statement, and their live vehicles, each saying
 * whether anyone could be told about it (settings.repository subscriberExists).
 */
export interface JudgeReads {
  motions: Map<string, Motion>;
  cars: (NotifyCar & { watched: boolean })[];
}

/**
 * evaluateBatch for the batches of several terminals (at most one each) in
 * the caller's transaction, with a handful of statements whatever their
 * number: the group commit of the gateway. Each batch is judged exactly as on
 * its own (the same rules, subscribers, cooldowns, its own time).
 */
export async function evaluateBatches(
  trx: Db,
  batches: readonly BatchToJudge[],
  publicUrl: string,
  reads?: JudgeReads,
): Promise<number> {
  const todo = batches.filter((b) => b.records.length > 0);
  if (todo.length === 0) return 0;
  const ids = todo.map((b) => b.carDataId);
  if (new Set(ids).size !== ids.length) throw new Error('evaluateBatches: at most one batch per terminal');

  // Motion first, locked in IMEI order: it also serialises judging one terminal across server instances.
  const motions = reads?.motions ?? (await lockMotions(trx, ids));
  const moved: ({ car_data_id: string } & Motion)[] = [];
  // Each batch put in time order once, for its motion and its findings.
  const orders = new Map(todo.map((b) => [b.carDataId, inTimeOrder(b.records, b.times)]));
  for (const b of todo) {
    const m = foldMotion(motions.get(b.carDataId) ?? null, orders.get(b.carDataId)!);
    if (m) moved.push({ car_data_id: b.carDataId, ...m });
  }
  await saveMotions(trx, moved);

  const fitted = reads ? reads.cars.filter((c) => ids.includes(c.car_data_id)) : await findCarsByDataIds(trx, ids);
  await queueTerminalEvents(trx, todo, fitted);
  // Zones are judged for every fitted vehicle: their crossings are kept (inbox, timeline) whoever listens.
  const zoneFindings = await judgeZones(
    trx,
    todo.map((b) => ({ carDataId: b.carDataId, order: orders.get(b.carDataId)!, now: b.now })),
    fitted,
  );
  // Vehicles nobody could be told about are not judged further (the same answer, fewer statements).
  const cars = reads ? reads.cars.filter((c) => c.watched && ids.includes(c.car_data_id)) : fitted;
  if (cars.length === 0) return 0;
  const subsByCar = await subscribersOfCars(trx, TELEMETRY_ITEMS, cars, { zones: true });
  const carSubs = cars.flatMap((car) => {
    const subs = subsByCar.get(car.car_id);
    return subs ? [{ car, subs }] : [];
  });
  if (carSubs.length === 0) return 0;
  const areas = await loadVehicleAreas(
    trx,
    carSubs.filter((c) => c.subs.some((s) => s.items.warn_area.enable)).map((c) => c.car),
  );
  const byImei = new Map(todo.map((b) => [b.carDataId, b]));
  const unknown = [...new Set(carSubs.map((c) => c.car.car_data_id))].filter(
    (id) => byImei.get(id)!.lastPosition === undefined,
  );
  const positions = await latestPositions(trx, unknown);

  let queued = 0;
  for (const { car, subs: carSubscribers } of carSubs) {
    const b = byImei.get(car.car_data_id)!;
    const lastPosition = b.lastPosition === undefined ? (positions.get(b.carDataId) ?? null) : b.lastPosition;
    const found = findBatchEvents(orders.get(b.carDataId)!, { areas: areas.get(car.car_id) ?? null, lastPosition });
    for (const sub of carSubscribers) {
      for (const item of TELEMETRY_ITEMS) {
        const setting = sub.items[item];
        if (!setting.enable) continue;
        const finding =
          item === 'vibration'
            ? setting.param === null
              ? undefined
              : found.vibration(setting.param)
            : found.fixed[item];
        if (finding && (await deliver(trx, sub, car, finding, { now: b.now, publicUrl }))) queued++;
      }
      // A zone crossing goes out on エリア警告's switch and channels, or on a group's own switches (docs/zones.md "Alerts").
      for (const z of zoneFindings.get(car.car_id) ?? []) {
        if (sub.zones === null ? !sub.items.warn_area.enable : !sub.zones[z.kind]) continue;
        if (await deliver(trx, sub, car, zoneAlertFinding(z, sub), { now: b.now, publicUrl })) queued++;
      }
    }
  }
  return queued;
}
