import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { evaluateBatches, TELEMETRY_ITEMS, type BatchToJudge } from './evaluate-batch.js';
import { motionFromRow } from './motion.repository.js';
import type { Motion } from './motion.js';
import type { NotifyCar } from './notification.repository.js';
import { subscriberExists } from './settings.repository.js';

type Read = { motion: Parameters<typeof motionFromRow>[0] | null; cars: (NotifyCar & { watched: boolean })[] | null };

/**
 * The notification judgement (areas, zones, the telemetry items) as a follower of ingest: it reads, in
 * the storing statement, each terminal's motion state (locked FOR UPDATE in IMEI order: it also
 * serialises judging one terminal across instances) and its live vehicles with whether anyone could be
 * told about them, then judges the stored batches with evaluateBatches.
 *
 * It has the shape of gateway/ingest-follower.ts's IngestFollower without importing it (the gateway
 * already depends on notify); the gateway's wiring checks the two agree.
 */
export function notificationFollower(publicUrl: string) {
  return {
    read: {
      ctes: (ids: RawBuilder<unknown>) => [
        sql`motion AS MATERIALIZED (SELECT * FROM vehicle_motion WHERE car_data_id = ANY(${ids}) ORDER BY car_data_id FOR UPDATE)`,
        sql`vehicles AS (SELECT v.car_id, v.car_number, v.company_id, v.car_data_id, v.lat_min, v.lat_max, v.lng_min, v.lng_max,
            ${subscriberExists(TELEMETRY_ITEMS, 'v.company_id')} AS watched
          FROM cars AS v WHERE v.car_data_id = ANY(${ids}) AND v.is_delete = false)`,
      ],
      value: (imei: RawBuilder<unknown>) => sql`jsonb_build_object(
        'motion', (SELECT to_jsonb(x) FROM motion AS x WHERE x.car_data_id = ${imei}),
        'cars', (SELECT jsonb_agg(to_jsonb(x) ORDER BY x.car_id) FROM vehicles AS x WHERE x.car_data_id = ${imei}))`,
    },
    async follow(trx: Db, stored: readonly BatchToJudge[], read: ReadonlyMap<string, unknown>) {
      const motions = new Map<string, Motion>();
      const cars: (NotifyCar & { watched: boolean })[] = [];
      for (const [imei, value] of read) {
        const r = value as Read | null;
        if (r?.motion) motions.set(imei, motionFromRow(r.motion));
        if (r?.cars) cars.push(...r.cars);
      }
      await evaluateBatches(trx, stored, publicUrl, { motions, cars });
    },
  };
}
