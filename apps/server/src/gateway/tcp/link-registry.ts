import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { LinkProtocol } from './link-terminals.js';

/**
 * The live link of each Teltonika / GT06 terminal, in the database so that
 * every server instance judges a login against a link held anywhere
 * (terminal_links). The instance holding a link refreshes its seen_at at each
 * safety poll while the socket is open and deletes the row when it closes; a
 * row whose instance stopped refreshing (the process died) counts as gone
 * after `aliveMs`.
 */
export interface LiveLink {
  address: string;
  connectedAt: Date;
  /** Held by this instance (else another one). */
  here: boolean;
}

export type Claim = { claimed: true; replaced: LiveLink | null } | { claimed: false; live: LiveLink };

export interface ClaimInput {
  imei: string;
  protocol: LinkProtocol;
  address: string;
  connectedAt: Date;
  /** This gateway's instance id. */
  instance: string;
  /** When this instance holds a link of the IMEI: its login time (the row is alive only if it names that one). */
  heldHere: Date | undefined;
  /** Take the link even when the existing one is alive. */
  replace: boolean;
  aliveMs: number;
}

type Row = { address: string; connected_at: Date | string; instance: string; seen_at: Date | string };

/**
 * Makes this login the terminal's live link unless another live link holds it
 * (or `replace`). One upsert decides, so two logins at the same time on two
 * instances cannot both win: the second waits for the first's row and judges it.
 * A login from the live link's own source address is the terminal reconnecting
 * (its old connection dropped without the server seeing it end, as mobile links
 * do): it takes the link, and is no second connection.
 */
export async function claimLink(db: Db, c: ClaimInput): Promise<Claim> {
  const me = c.instance;
  const heldHere = c.heldHere ?? null;
  const before = await db
    .selectFrom('terminal_links')
    .select(['address', 'connected_at', 'instance', 'seen_at'])
    .where('car_data_id', '=', c.imei)
    .executeTakeFirst();
  const won = await sql<{ car_data_id: string }>`
    INSERT INTO terminal_links (car_data_id, protocol, address, connected_at, instance, seen_at)
    VALUES (${c.imei}, ${c.protocol}, ${c.address}, ${c.connectedAt}, ${me}, now())
    ON CONFLICT (car_data_id) DO UPDATE SET protocol = excluded.protocol, address = excluded.address,
      connected_at = excluded.connected_at, instance = excluded.instance, seen_at = excluded.seen_at
    WHERE ${c.replace} OR terminal_links.address = ${c.address}
      OR (terminal_links.instance = ${me}
        AND (${heldHere}::timestamptz IS NULL OR terminal_links.connected_at <> ${heldHere}::timestamptz))
      OR (terminal_links.instance <> ${me}
        AND terminal_links.seen_at < now() - ${c.aliveMs} * interval '1 millisecond')
    RETURNING car_data_id`.execute(db);
  const alive = (r: Row | undefined): LiveLink | null => {
    if (!r || r.address === c.address) return null;
    const here = r.instance === me;
    const connectedAt = new Date(r.connected_at);
    const live = here
      ? heldHere !== null && connectedAt.getTime() === heldHere.getTime()
      : Date.now() - new Date(r.seen_at).getTime() <= c.aliveMs;
    return live ? { address: r.address, connectedAt, here } : null;
  };
  if (won.rows.length > 0) return { claimed: true, replaced: alive(before) };
  // Refused: the row as it is now (another login may have taken it since `before`).
  const now = await db
    .selectFrom('terminal_links')
    .select(['address', 'connected_at', 'instance', 'seen_at'])
    .where('car_data_id', '=', c.imei)
    .executeTakeFirst();
  const row = now ?? before;
  // Gone between the upsert and this read (the link closed): try again.
  if (!row) return claimLink(db, c);
  return {
    claimed: false,
    live: { address: row.address, connectedAt: new Date(row.connected_at), here: row.instance === me },
  };
}

/** The link closed: its row goes, unless a newer login took the terminal meanwhile. */
export async function releaseLink(db: Db, imei: string, instance: string, connectedAt: Date): Promise<void> {
  await db
    .deleteFrom('terminal_links')
    .where('car_data_id', '=', imei)
    .where('instance', '=', instance)
    .where('connected_at', '=', connectedAt)
    .execute();
}

/** Every link of this instance closed (a clean stop). */
export async function releaseInstance(db: Db, instance: string): Promise<void> {
  await db.deleteFrom('terminal_links').where('instance', '=', instance).execute();
}

/**
 * Refreshes this instance's links and says which of `links` (IMEI → login time)
 * are still the terminal's live link; the others were taken by a newer login
 * (on another instance, with TERMINAL_TAKEOVER=replace) and must be closed.
 */
export async function stillHeld(
  db: Db,
  instance: string,
  links: ReadonlyMap<string, Date>,
  refresh: boolean,
): Promise<Set<string>> {
  if (links.size === 0) return new Set();
  const imeis = [...links.keys()];
  const rows = refresh
    ? (
        await sql<{ car_data_id: string; connected_at: Date | string }>`
          UPDATE terminal_links SET seen_at = now()
          WHERE car_data_id = ANY(${imeis}::text[]) AND instance = ${instance}
          RETURNING car_data_id, connected_at`.execute(db)
      ).rows
    : await db
        .selectFrom('terminal_links')
        .select(['car_data_id', 'connected_at'])
        .where('car_data_id', 'in', imeis)
        .where('instance', '=', instance)
        .execute();
  const out = new Set<string>();
  for (const r of rows)
    if (new Date(r.connected_at).getTime() === links.get(r.car_data_id)?.getTime()) out.add(r.car_data_id);
  return out;
}

/**
 * Notes the source address of an accepted login. Returns whether the address
 * is new for a terminal that had logged in from another one before (the very
 * first address of a terminal is where it starts, not news).
 */
export async function noteAddress(db: Db, imei: string, address: string): Promise<boolean> {
  const { rows } = await sql<{ known: boolean; others: boolean }>`
    WITH prev AS (
      SELECT EXISTS (SELECT 1 FROM terminal_addresses WHERE car_data_id = ${imei} AND address = ${address}) AS known,
             EXISTS (SELECT 1 FROM terminal_addresses WHERE car_data_id = ${imei} AND address <> ${address}) AS others),
    up AS (
      INSERT INTO terminal_addresses (car_data_id, address) VALUES (${imei}, ${address})
      ON CONFLICT (car_data_id, address) DO UPDATE SET last_at = now())
    SELECT known, others FROM prev`.execute(db);
  const r = rows[0];
  return !!r && !r.known && r.others;
}

/** Whether the company of the vehicle carrying this terminal asked for the new-address alert. */
export async function wantsNewAddressAlert(db: Db, imei: string): Promise<boolean> {
  const row = await db
    .selectFrom('cars as c')
    .innerJoin('companies as co', 'co.company_id', 'c.company_id')
    .select('co.alert_new_terminal_address')
    .where('c.car_data_id', '=', imei)
    .where('c.is_delete', '=', false)
    .where('co.alert_new_terminal_address', '=', true)
    .executeTakeFirst();
  return !!row;
}
