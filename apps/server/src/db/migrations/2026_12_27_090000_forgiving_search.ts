import { type Kysely, sql } from 'kysely';

/**
 * Forgiving search of vehicle numbers and names (docs/console.md "Lists"): 「３０１」, 「練馬301」 and 「1425」 find
 * 練馬 301 い 14-25, 「佐藤花子」 finds 佐藤 花子, 「さとう」 finds サトウ. list_search_key(s) is the one normalisation,
 * applied to the stored column (a generated key column, GIN-indexed) and to the words of a search
 * (http/list-query.ts passes the raw words to it in the statement): NFKC (full-width and half-width alike),
 * lower case, hiragana as katakana, spaces and hyphens left out. The key's bigrams serve a search of two
 * characters as list_search_bigrams' did for the raw names; list_search_pattern is the key as an escaped LIKE
 * "contains" pattern. Both are immutable, so a statement given its words as parameters folds them to constants
 * when it is planned and the indexes serve it. The raw columns' search indexes go: nothing searches them now.
 */
const hiragana =
  'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞ';
const katakana =
  'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶヽヾ';
/** Left out of a key: the space (NFKC makes U+3000 one) and the hyphens and dashes a number or name is typed with. */
const dropped = ' -\u2010\u2011\u2012\u2013\u2014\u2015\u2212';

const statements = [
  `CREATE FUNCTION list_search_key(s text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
     SELECT translate(lower(normalize(s, NFKC)), '${hiragana}${dropped}', '${katakana}')
   $$`,
  String.raw`CREATE FUNCTION list_search_pattern(s text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
     SELECT '%' || replace(replace(replace(list_search_key(s), '\', '\\'), '%', '\%'), '_', '\_') || '%'
   $$`,
  `DROP INDEX cars_number_trgm_idx`,
  `DROP INDEX cars_user_name_trgm_idx`,
  `DROP INDEX car_users_full_name_trgm_idx`,
  `DROP INDEX accounts_name_trgm_idx`,
  `ALTER TABLE cars DROP COLUMN user_name_bigrams,
     ADD COLUMN car_number_key text GENERATED ALWAYS AS (list_search_key(car_number)) STORED,
     ADD COLUMN user_name_key text GENERATED ALWAYS AS (list_search_key(user_name)) STORED,
     ADD COLUMN user_name_key_bigrams text[] GENERATED ALWAYS AS (list_bigrams(list_search_key(user_name))) STORED`,
  `ALTER TABLE car_users DROP COLUMN full_name_bigrams,
     ADD COLUMN full_name_key text GENERATED ALWAYS AS (list_search_key(first_name || name)) STORED,
     ADD COLUMN full_name_key_bigrams text[] GENERATED ALWAYS AS (list_bigrams(list_search_key(first_name || name))) STORED`,
  `ALTER TABLE accounts DROP COLUMN name_bigrams,
     ADD COLUMN name_key text GENERATED ALWAYS AS (list_search_key(name)) STORED,
     ADD COLUMN name_key_bigrams text[] GENERATED ALWAYS AS (list_bigrams(list_search_key(name))) STORED`,
  `CREATE INDEX cars_number_key_trgm_idx ON cars USING gin (car_number_key gin_trgm_ops) WITH (fastupdate = off)`,
  `CREATE INDEX cars_user_name_key_trgm_idx ON cars USING gin (user_name_key gin_trgm_ops) WITH (fastupdate = off)`,
  `CREATE INDEX cars_user_name_key_bigram_idx ON cars USING gin (user_name_key_bigrams) WITH (fastupdate = off)`,
  `CREATE INDEX car_users_full_name_key_trgm_idx ON car_users USING gin (full_name_key gin_trgm_ops) WITH (fastupdate = off)`,
  `CREATE INDEX car_users_full_name_key_bigram_idx ON car_users USING gin (full_name_key_bigrams) WITH (fastupdate = off)`,
  `CREATE INDEX accounts_name_key_trgm_idx ON accounts USING gin (name_key gin_trgm_ops) WITH (fastupdate = off)`,
  `CREATE INDEX accounts_name_key_bigram_idx ON accounts USING gin (name_key_bigrams) WITH (fastupdate = off)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
