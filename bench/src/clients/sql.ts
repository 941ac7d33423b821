/**
 * The list section's SQL anchor on PostgreSQL (issue #19): a process of its own, so replaying a case's
 * statements never runs `pg` inside the server's process between the API's calls (that slowed the
 * server's next calls: bench/README.md, "The list anchor's order"). One connection; each line on standard
 * input is a case { i, queries: [{ sql, parameters, name? }], runs, budgetMs }: its statements are run in
 * order (as named prepared statements where a name is given), timed as the bench's `sample` times, and the
 * figures are printed as '# sql <i> <Sample JSON>' ('# ready' once connected). When its input ends it
 * prints '{}' and exits.
 * argv[2]: { url }.
 */
import { createInterface } from 'node:readline';
import pg from 'pg';
import { sample } from '../stats.js';

interface Replay {
  i: number;
  queries: { sql: string; parameters: unknown[]; name?: string }[];
  runs: number;
  budgetMs: number;
}

const { url } = JSON.parse(process.argv[2]!) as { url: string };
const client = new pg.Client({ connectionString: url });
await client.connect();
console.log('# ready');

const replay = async (c: Replay) => {
  for (const q of c.queries)
    await client.query(
      q.name ? { name: q.name, text: q.sql, values: q.parameters } : { text: q.sql, values: q.parameters },
    );
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const c = JSON.parse(line) as Replay;
  const figures = await sample(() => replay(c), { runs: c.runs, budgetMs: c.budgetMs });
  console.log(`# sql ${c.i} ${JSON.stringify(figures)}`);
}
await client.end();
console.log('{}');
