import { sql, type Kysely } from 'kysely';

/**
 * The rows of the four big lists (vehicles, customers, accounts, terminals) counted as they are written, by what a
 * list's count without a search filters on: the company, the role (accounts) and the deletion flag. Counting
 * walked an index entry per row, which for the super admin's whole fleet made every count call cost milliseconds
 * of SQL (bench/README.md, Measurements behind the code: Lists); the
 * count is now the sum of the few rows of `list_counts` that match (http/list-query.ts, `tally`), and a page past
 * the middle of a list is read from its end (the same order reversed, so fewer entries are skipped).
 *
 * A row of `list_counts` is a delta: AFTER statement triggers, with the statement's old and new rows as transition
 * tables, insert one row per (company, role, deletion flag) whose number of rows the statement changed. Nothing is
 * updated in place, so two writers never wait for each other on a counter row (nor deadlock on two of them), and a
 * rolled-back write takes its deltas with it. The jobs module sums each list's deltas again from the table itself
 * (db/list-counts.ts, `recountLists`), in one REPEATABLE READ transaction: the few rows stay few, and a count that
 * drifted (a write with triggers disabled) is put right. TRUNCATE empties the list's deltas.
 *
 * The migration locks the tables it counts, so no write falls between the first counts and the triggers.
 */
export const countedLists = [
  { list: 'cars', company: 'company_id', role: 'null::smallint' },
  { list: 'car_users', company: 'company_id', role: 'null::smallint' },
  { list: 'accounts', company: 'company_id', role: 'role' },
  { list: 'devices', company: 'null::text', role: 'null::smallint' },
] as const;

/** The rows of `list_counts` that a list's table holds now, as a SELECT (the migration's and the job's). */
export const listCountRows = ({ list, company, role }: (typeof countedLists)[number]) =>
  `SELECT '${list}', ${company}, ${role}, is_delete, count(*) FROM ${list} GROUP BY 2, 3, 4`;

const deltas = (company: string, role: string, rows: string, sign: '' | '-') =>
  `SELECT ${company} AS company_id, ${role} AS role, is_delete, ${sign}count(*) AS n FROM ${rows} GROUP BY 1, 2, 3`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `LOCK TABLE ${countedLists.map((l) => l.list).join(', ')} IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE TABLE list_counts (
       list text NOT NULL,
       company_id text,
       role smallint,
       is_delete boolean NOT NULL,
       n bigint NOT NULL
     )`,
    `CREATE INDEX list_counts_list ON list_counts (list, company_id)`,
    ...countedLists.map((l) => `INSERT INTO list_counts (list, company_id, role, is_delete, n) ${listCountRows(l)}`),
  ];
  for (const { list, company, role } of countedLists) {
    const insert = (select: string) =>
      `INSERT INTO list_counts (list, company_id, role, is_delete, n) SELECT '${list}', company_id, role, is_delete, sum(n) FROM (${select}) d GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0`;
    statements.push(
      `CREATE FUNCTION list_counts_${list}_insert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         ${insert(deltas(company, role, 'new_rows', ''))};
         RETURN NULL;
       END $$`,
      `CREATE FUNCTION list_counts_${list}_delete() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         ${insert(deltas(company, role, 'old_rows', '-'))};
         RETURN NULL;
       END $$`,
      // An update that moves no row to another company, role or deletion flag sums to nothing and inserts nothing.
      `CREATE FUNCTION list_counts_${list}_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         ${insert(`${deltas(company, role, 'new_rows', '')} UNION ALL ${deltas(company, role, 'old_rows', '-')}`)};
         RETURN NULL;
       END $$`,
      `CREATE FUNCTION list_counts_${list}_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM list_counts WHERE list = '${list}';
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER list_counts_insert AFTER INSERT ON ${list} REFERENCING NEW TABLE AS new_rows
         FOR EACH STATEMENT EXECUTE FUNCTION list_counts_${list}_insert()`,
      `CREATE TRIGGER list_counts_delete AFTER DELETE ON ${list} REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION list_counts_${list}_delete()`,
      `CREATE TRIGGER list_counts_update AFTER UPDATE ON ${list} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
         FOR EACH STATEMENT EXECUTE FUNCTION list_counts_${list}_update()`,
      `CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON ${list}
         FOR EACH STATEMENT EXECUTE FUNCTION list_counts_${list}_truncate()`,
    );
  }
  for (const statement of statements) await sql.raw(statement).execute(db);
}
