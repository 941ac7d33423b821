import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { subscribeChannel } from '../src/db/channel.js';
import type { Db } from '../src/db/database.js';
import { urlForDatabase } from './databases.js';

export interface OutsideSql {
  /**
   * Runs a statement on a connection of its own (a support script's), then a sentinel NOTIFY after it:
   * signals arrive in commit order, so once the sentinel is here, whatever the statement signalled on the
   * channel is too. Returns the payloads it signalled.
   */
  run(text: string, values?: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

/** SQL from outside the app on the test app's PostgreSQL database, and what it signals on `channel` (PostgreSQL only). */
export async function outsideSql(db: Db, channel: string): Promise<OutsideSql> {
  const heard: string[] = [];
  const subscription = subscribeChannel(db, channel, { warn: () => undefined }, { message: (p) => heard.push(p) });
  await subscription.listening();
  const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(db);
  const client = new pg.Client({ connectionString: urlForDatabase(inject('databaseUrl'), rows[0]!.name) });
  await client.connect();
  return {
    async run(text, values = []) {
      heard.length = 0;
      await client.query(text, values);
      const sentinel = `sentinel:${Math.random()}`;
      await client.query('SELECT pg_notify($1, $2)', [channel, sentinel]);
      const until = Date.now() + 3000;
      while (!heard.includes(sentinel)) {
        if (Date.now() > until) throw new Error('the sentinel NOTIFY never arrived');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return heard.filter((p) => p !== sentinel);
    },
    async close() {
      await client.end();
      await subscription.close();
    },
  };
}
