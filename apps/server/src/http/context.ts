import type { Actor } from '@fleet/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { SessionRow } from '../sessions/session.repository.js';
import type { TerminalCache } from '../credentials/terminal-cache.js';

/** What every route handler gets: the database and configuration of this server. */
export interface AppContext {
  db: Db;
  config: Config;
  /** The in-process session cache (buildApp makes it); without it every call reads its session from the database. */
  sessions?: SessionCache<SessionRow>;
  /** The in-process cache of reporting terminals' rows and limit states (buildApp makes it with the session cache). */
  terminals?: TerminalCache;
}

/** The signed-in caller, resolved by the token check of every non-public call. */
export interface AuthedActor extends Actor {
  name: string;
  /** エンジン制御権限 of the account. */
  engine_control: boolean;
  /** Until when this session may prohibit without a new step-up; null: not stepped up. */
  stepped_up_until: Date | null;
  session: SessionRow;
}
