/**
 * The list section's SQL anchor on PostgreSQL (issue #19): a process of its own, so replaying a case's
 * statements never runs `pg` inside the server's process between the API's calls (that slowed the
 * server's next calls: bench/HISTORY.md, "The list anchor's order"). One connection; each line on standard
 * input is a turn of a case { i, queries?: [{ sql, parameters, name? }], untimed, timed }: the case's
 * statements (sent with its first turn, kept for the next) are run in order, as named prepared statements
 * where a name is given, `untimed` times and then `timed` times, each timed as the bench's `sample` times;
 * it prints '# sql <i> <JSON array of ms>' ('# ready' once connected). When its input ends it prints '{}'
 * and exits.
 * argv[2]: { url, options }: the server's session options (SESSION_OPTIONS: JIT off), as the replay stands for
 * the server's own statement.
 */
import { createInterface } from 'node:readline';
import pg from 'pg';
import { timedRuns } from '../stats.js';

interface Query {
  sql: string;
  parameters: unknown[];
  name?: string;
}

interface Turn {
  i: number;
  queries?: Query[];
  untimed: number;
  timed: number;
}

const { url, options } = JSON.parse(process.argv[2]!) as { url: string; options: string };
const client = new pg.Client({ connectionString: url, options });
await client.connect();
console.log('# ready');

const cases = new Map<number, Query[]>();
const replay = async (queries: Query[]) => {
  for (const q of queries)
    await client.query(
      q.name ? { name: q.name, text: q.sql, values: q.parameters } : { text: q.sql, values: q.parameters },
    );
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const turn = JSON.parse(line) as Turn;
  if (turn.queries) cases.set(turn.i, turn.queries);
  const queries = cases.get(turn.i);
  if (!queries) throw new Error(`case ${turn.i} came without its statements`);
  const times = await timedRuns(() => replay(queries), turn.untimed, turn.timed);
  console.log(`# sql ${turn.i} ${JSON.stringify(times)}`);
}
await client.end();
console.log('{}');
