import { LIVE_TICKET_SECONDS } from '@fleet/contract';
import { sql } from 'kysely';
import { hashToken, newToken } from '../sessions/token.js';
import type { Db } from '../db/database.js';
import { inGroups } from '../access/visibility.js';

/** A single-use ticket for one live stream, bound to the session that asked for it. */
export async function createTicket(db: Db, tokenHash: string): Promise<string> {
  const ticket = newToken();
  await db
    .deleteFrom('live_tickets')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('live_tickets')
    .values({
      ticket_hash: hashToken(ticket),
      token_hash: tokenHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${LIVE_TICKET_SECONDS})`,
    })
    .execute();
  return ticket;
}

/** Uses the ticket up and returns its session's token hash, or undefined (unknown, used, expired). */
export async function redeemTicket(db: Db, ticket: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('live_tickets')
    .where('ticket_hash', '=', hashToken(ticket))
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('token_hash')
    .executeTakeFirst();
  return row?.token_hash;
}

/**
 * Terminals a scope may watch, with their vehicle: a company's vehicles with a
 * terminal (a group-limited account's: those in its groups), or (scope null, the super admin) every terminal.
 */
export async function visibleTerminals(
  db: Db,
  company: string | null,
  groups: readonly string[] | null = null,
): Promise<Map<string, string | null>> {
  if (company === null) {
    const rows = await db
      .selectFrom('devices as d')
      .leftJoin('cars as c', (j) => j.onRef('c.car_data_id', '=', 'd.car_data_id').on('c.is_delete', '=', false))
      .select(['d.car_data_id', 'c.car_id'])
      .execute();
    return new Map(rows.map((r) => [r.car_data_id, r.car_id]));
  }
  const rows = await db
    .selectFrom('cars')
    .select(['car_data_id', 'car_id'])
    .where('company_id', '=', company)
    .where('car_data_id', 'is not', null)
    .where(inGroups(sql.ref('cars.car_id'), groups))
    // A deleted vehicle's terminal that now sits on another company's live vehicle is theirs, not ours.
    .where(
      sql<boolean>`(not cars.is_delete or not exists (select 1 from cars o where o.car_data_id = cars.car_data_id and not o.is_delete and o.company_id is distinct from cars.company_id))`,
    )
    .orderBy('is_delete', 'desc')
    .execute();
  // A live vehicle wins over a deleted one with the same terminal (ordered last).
  return new Map(rows.map((r) => [r.car_data_id!, r.car_id]));
}
