import { addressAllowed, type LinkProtocol } from '@fleet/contract';
import type { Db } from '../../db/database.js';

/**
 * The terminals of the binary protocols, found by IMEI alone: Teltonika and
 * GT06 devices send nothing else to authenticate with. What keeps a stranger
 * who knows an IMEI out is the terminal's protocol (a JSON or OsmAnd terminal
 * never logs in here) and, when the terminal's `ipaddr` is set, the source
 * networks it may connect from (docs/device-protocol.md).
 */
export type { LinkProtocol };

export interface LinkTerminal {
  car_device_id: string;
  car_data_id: string;
  protocol: LinkProtocol;
  /** The immobiliser texts set on the terminal (empty: the protocol's default). */
  cmd_cut_text: string;
  cmd_restore_text: string;
}

export type LoginRefusal = 'unknown' | 'deleted' | 'protocol' | 'network';

/** The terminal with this IMEI that may log in over `protocol` from `address`, or why not. */
export async function findLinkTerminal(
  db: Db,
  imei: string,
  protocol: LinkProtocol,
  address: string | undefined,
): Promise<LinkTerminal | LoginRefusal> {
  const d = await db
    .selectFrom('devices')
    .select(['car_device_id', 'car_data_id', 'is_delete', 'ipaddr', 'protocol', 'cmd_cut_text', 'cmd_restore_text'])
    .where('car_data_id', '=', imei)
    .orderBy('is_delete')
    .orderBy('car_device_id')
    .executeTakeFirst();
  if (!d) return 'unknown';
  if (d.is_delete) return 'deleted';
  if (d.protocol !== protocol) return 'protocol';
  if (!addressAllowed(d.ipaddr, address)) return 'network';
  return {
    car_device_id: d.car_device_id,
    car_data_id: d.car_data_id,
    protocol,
    cmd_cut_text: d.cmd_cut_text,
    cmd_restore_text: d.cmd_restore_text,
  };
}
