import { reservationStates } from '@fleet/contract';
import type { Db } from '../db/database.js';

/** A TCP terminal's link as a command row records it: the source address and when it logged in. */
export interface CommandLinkOf {
  address: string;
  connectedAt: Date;
}

/**
 * The link that first delivered these commands of the terminal. A command sent
 * again on a later link (the first never answered) keeps the first: the
 * engine screen's warning is about exactly that change.
 */
export async function recordCommandsSent(
  db: Db,
  carDataId: string,
  ids: readonly number[],
  link: CommandLinkOf,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('reserved_commands')
    .set({ sent_address: link.address, sent_connected_at: link.connectedAt })
    .where('id', 'in', [...ids])
    .where('car_data_id', '=', carDataId)
    .where('sent_connected_at', 'is', null)
    .execute();
}

/**
 * The link an answer came on, written before the result is stored: a result
 * that is then refused (not waiting, another terminal's) changes nothing, as
 * only the terminal's own command still waiting for its result is touched.
 */
export async function recordCommandAnswered(db: Db, carDataId: string, id: number, link: CommandLinkOf): Promise<void> {
  await db
    .updateTable('reserved_commands')
    .set({ answer_address: link.address, answer_connected_at: link.connectedAt })
    .where('id', '=', id)
    .where('car_data_id', '=', carDataId)
    .where('state', '=', reservationStates.resultWait)
    .where('deleted_at', 'is', null)
    .execute();
}
