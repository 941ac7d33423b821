import { type Kysely, sql } from 'kysely';

/**
 * Two-character searches of names (a surname: 田中, 佐藤, 鈴木). Trigram
 * indexes need three characters: for '%田中%' pg_trgm extracts no trigram and
 * reads the whole index, and no bigram extension (pg_bigm) exists for the
 * Debian PostgreSQL here or for PGlite. So the names keep their own bigrams:
 * list_bigrams(s) is every pair of adjacent characters of lower(s), stored in
 * a generated column with a GIN index. A search of exactly two characters asks
 * `bigrams @> ARRAY[lower(text)]` (the index) and then the exact condition,
 * `position(lower(text) in lower(col)) > 0`: what ILIKE computes, written so the planner
 * does not also read the trigram index in full (http/list-query.ts).
 */
const statements = [
  `CREATE FUNCTION list_bigrams(s text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   DECLARE
     l text := lower(s);
     out text[] := '{}';
   BEGIN
     FOR i IN 1 .. char_length(l) - 1 LOOP
       out := out || substr(l, i, 2);
     END LOOP;
     RETURN out;
   END $$`,
  `ALTER TABLE cars ADD COLUMN user_name_bigrams text[] GENERATED ALWAYS AS (list_bigrams(user_name)) STORED`,
  `ALTER TABLE car_users ADD COLUMN full_name_bigrams text[] GENERATED ALWAYS AS (list_bigrams(first_name || ' ' || name)) STORED`,
  `ALTER TABLE accounts ADD COLUMN name_bigrams text[] GENERATED ALWAYS AS (list_bigrams(name)) STORED`,
  `CREATE INDEX cars_user_name_bigram_idx ON cars USING gin (user_name_bigrams)`,
  `CREATE INDEX car_users_full_name_bigram_idx ON car_users USING gin (full_name_bigrams)`,
  `CREATE INDEX accounts_name_bigram_idx ON accounts USING gin (name_bigrams)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
