import { cancelReasonText } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { sql } from 'kysely';
import { anyWebhookWants, enqueueWebhookEvent, lockCursor, saveCursor } from './webhook.repository.js';

const CURSOR = 'reserved_command_events';
/**
 * Event ids are handed out before their transactions commit, so one may become visible after a
 * higher one was read: every run reads again this many ids behind the cursor (queuing is idempotent).
 */
const LOOKBACK_IDS = 500;
const BATCH = 500;

/**
 * Turns command state changes (commands/ records each in reserved_command_events: reserved, fetched, succeeded,
 * failed, deleted, expired, cancelled, held) into `command` webhook events, outside any command's
 * transaction, so neither the console nor a terminal waits for it. Returns events queued.
 */
export async function queueCommandEvents(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const maxId = async () => {
      const r = await trx
        .selectFrom('reserved_command_events')
        .select(sql<string | null>`max(id)`.as('m'))
        .executeTakeFirst();
      return Number(r?.m ?? 0);
    };
    const cursor = await lockCursor(trx, CURSOR, maxId);
    const rows = await trx
      .selectFrom('reserved_command_events as e')
      .innerJoin('reserved_commands as c', 'c.id', 'e.command_id')
      .select([
        'e.id',
        'e.event',
        'e.state',
        'e.at',
        'e.reason',
        'e.account_id',
        'c.id as command_id',
        'c.company_id',
        'c.car_data_id',
        'c.cmd_idx',
        'c.cmd_type',
        'c.cmd_info',
        'c.result',
        'c.car_id',
      ])
      .where('e.id', '>', Math.max(0, cursor - LOOKBACK_IDS))
      .orderBy('e.id')
      .limit(BATCH + LOOKBACK_IDS)
      .execute();
    if (!rows.length) return 0;
    const wanted = await anyWebhookWants(trx, 'command');
    let queued = 0;
    for (const r of wanted ? rows : []) {
      const result = typeof r.result === 'string' ? JSON.parse(r.result) : r.result;
      queued += await enqueueWebhookEvent(
        trx,
        {
          id: `command_event:${r.id}`,
          type: 'command',
          company_id: r.company_id,
          at: new Date(r.at),
          data: {
            command_id: Number(r.command_id),
            event: r.event,
            state: r.state,
            car_id: r.car_id,
            car_data_id: r.car_data_id,
            cmd_idx: r.cmd_idx,
            cmd_type: r.cmd_type,
            cmd_info: typeof r.cmd_info === 'string' ? JSON.parse(r.cmd_info) : r.cmd_info,
            result: r.event === 'succeeded' || r.event === 'failed' ? (result ?? null) : null,
            reason: cancelReasonText(r.reason),
            account_id: r.account_id,
          },
        },
        now,
      );
    }
    await saveCursor(trx, CURSOR, Math.max(cursor, Number(rows[rows.length - 1]!.id)));
    return queued;
  });
}
