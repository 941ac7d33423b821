/**
 * The list section's SQL anchor on PostgreSQL (issue #19): a process of its own, so replaying a case's
 * statements never runs `pg` inside the server's process between the API's calls (that slowed the
 * server's next calls: bench/README.md, "The list anchor's order"). One connection; each line on standard
 * input is a case { i, queries: [{ sql, parameters, name? }], runs, budgetMs }: its statements are run in
 * order (as named prepared statements where a name is given) two times untimed, then timed, and the
 * figures are printed as '# sql <i> <Sample JSON>' ('# ready' once connected). When its input ends it
 * prints '{}' and exits.
 * argv[2]: { url }.
 */
import { createInterface } from 'node:readline';
import pg from 'pg';
import { summarize } from '../stats.js';

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
  for (let i = 0; i < 2; i++) await replay(c);
  const times: number[] = [];
  const deadline = performance.now() + c.budgetMs;
  while (times.length < c.runs && (times.length < 3 || performance.now() < deadline)) {
    const t = performance.now();
    await replay(c);
    times.push(performance.now() - t);
  }
  console.log(`# sql ${c.i} ${JSON.stringify(summarize(times))}`);
}
await client.end();
console.log('{}');
