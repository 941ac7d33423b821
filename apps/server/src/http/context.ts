import type { Actor } from '@fleet/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { SessionRow } from '../auth/session.repository.js';

/** What every route handler gets: the database and configuration of this server. */
export interface AppContext {
  db: Db;
  config: Config;
}

/** The signed-in caller, resolved by the token check of every non-public call. */
export interface AuthedActor extends Actor {
  name: string;
  session: SessionRow;
}
