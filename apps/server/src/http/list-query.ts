import { fieldMessages, narrowedCompany, parseSort, validationMessages } from '@fleet/contract';
import { sql, type AliasedSelectQueryBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import { executePrepared } from '../db/prepared.js';
import { createStatementCache, type StatementCache } from '../db/statement-cache.js';
import { badRequest } from './errors.js';

/**
 * The one implementation of the list rules every count and list call shares:
 * search column by index, substring search, sort whitelist with a primary-key
 * tiebreaker, deleted rows on request, company scope. A domain configures it
 * with its columns; count and list run the same filter.
 */
export interface ListColumn {
  /** The SQL of the column, e.g. sql.ref('c.car_id') or a concatenation. */
  expr: Expression<unknown>;
  /** An enum column: the search matches its number or (part of) its Japanese label. */
  labels?: Record<number, string>;
  /**
   * A forgiving search (vehicle numbers, names): the column's stored search key, list_search_key(col), with its
   * trigram index, and the key's bigrams for two characters (migration forgiving_search). The search's words go
   * through the same function in the statement, so full-width and half-width, hiragana and katakana, spaces and
   * hyphens do not matter.
   */
  key?: { expr: Expression<unknown>; bigrams?: Expression<unknown> };
}

export interface ListConfig<K extends string = string> {
  columns: Record<K, ListColumn>;
  /** Search columns in index order: the contract's <domain>SearchColumns. */
  search: readonly { key: K }[];
  /** The contract's sort whitelist. */
  sortable: readonly K[];
  /** Default sort and tiebreaker, so paging is stable. */
  primaryKey: K;
  /** The row's is_delete column. */
  deleted: Expression<boolean>;
  /** The row's company column; omitted for lists that are not company-scoped. */
  company?: Expression<string | null>;
}

export interface ListFilterInput {
  search_item: string;
  search_text: string;
  isDelete: boolean;
  companyId?: string | null | undefined;
}
export interface PagingInput {
  offset: number;
  limit: number;
  sorts?: string | string[] | undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** LIKE pattern for "contains", with the wildcards of the text escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A search once its text is read: the column, how it matches, and what the statement binds.
 * `like`: a substring (`pattern` bound); `key`: the words as typed (`text` bound), matched by their search key
 * against the column's (two characters through the key's bigrams);
 * `codes`: an enum column, the codes whose number or label matches (written into the shape).
 */
export interface ListSearch {
  item: number;
  match: 'like' | 'key' | 'codes';
  text: string;
  pattern: string;
  codes: number[];
}

/** The search of a filter, or null without one; 400 for a search column the list does not have. */
export function listSearchOf<K extends string>(cfg: ListConfig<K>, filter: ListFilterInput): ListSearch | null {
  // Full-width digits and letters typed into any search are the half-width ones the columns hold.
  const text = filter.search_text.normalize('NFKC').trim();
  if (!text) return null;
  const item = Number(filter.search_item);
  const key = cfg.search[item]?.key;
  if (key === undefined) throw badRequest(undefined, { search_item: fieldMessages.searchItem });
  return columnSearch(cfg.columns[key], item, text);
}

/** How one column is searched for a text already read (trimmed, NFKC). */
function columnSearch(column: ListColumn, item: number, text: string): ListSearch {
  const search: ListSearch = { item, match: 'like', text: '', pattern: '', codes: [] };
  if (column.key) return { ...search, match: 'key', text };
  if (!column.labels) return { ...search, pattern: containsPattern(text) };
  const needle = text.toLowerCase();
  const codes = Object.entries(column.labels)
    .filter(([code, label]) => code === text || label.toLowerCase().includes(needle))
    .map(([code]) => Number(code));
  return { ...search, match: 'codes', codes };
}

/**
 * A search text matching any of several columns, each as a list's search matches it (a screen with one
 * search box over a few columns, e.g. the alert inbox's vehicle); null without text.
 */
export function anyColumnMatches(columns: readonly ListColumn[], searchText: string): Expression<SqlBool> | null {
  const text = searchText.normalize('NFKC').trim();
  if (!text) return null;
  const conditions = columns.map((c) => searchCondition(c, columnSearch(c, 0, text)));
  return sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
}

function searchCondition(column: ListColumn, search: ListSearch): Expression<SqlBool> {
  if (search.match === 'key' && column.key) return keyCondition(column.key, search.text);
  if (search.match === 'like') return sql<SqlBool>`${column.expr} ilike ${search.pattern} escape '\\'`;
  return search.codes.length ? sql<SqlBool>`${column.expr} in (${sql.join(search.codes)})` : sql<SqlBool>`false`;
}

/**
 * The words' key occurs in the column's key. The words are bound as typed and normalised in the statement by
 * the same function as the stored key; an immutable function of a bound value is folded into a constant when the
 * statement is planned (a search is never prepared), so the CASE leaves the one branch its length chooses: two
 * characters through the key's bigrams (trigrams need three), more through the key's trigram index. position() is
 * the exact test: for two characters it does not lead the planner to also read the trigram index (in full).
 */
function keyCondition(key: NonNullable<ListColumn['key']>, text: string): Expression<SqlBool> {
  const words = sql`list_search_key(${text})`;
  const like = sql<SqlBool>`${key.expr} like list_search_pattern(${text})`;
  if (!key.bigrams) return like;
  return sql<SqlBool>`(case when char_length(${words}) = 2 then ${key.bigrams} @> array[${words}]::text[] else ${like} end) and position(${words} in ${key.expr}) > 0`;
}

/**
 * Applies search, deleted and company filters; the same for a count and its list. `company` is the
 * caller's scope (Access.company): null for the super admin, who may narrow with `companyId`. `search`:
 * the filter's (listSearchOf), unless the caller read it already.
 */
export function applyListFilter<Q extends AnyQuery, K extends string>(
  q: Q,
  cfg: ListConfig<K>,
  filter: ListFilterInput,
  company: string | null,
  search: ListSearch | null = listSearchOf(cfg, filter),
): Q {
  let out: AnyQuery = q;
  if (search) out = out.where(searchCondition(cfg.columns[cfg.search[search.item]!.key], search));
  if (!filter.isDelete) out = out.where(sql<SqlBool>`${cfg.deleted} = false`);
  if (cfg.company) {
    // Everyone but the super admin is held to their own company, whatever companyId says.
    const narrowed = narrowedCompany(company, filter.companyId);
    if (narrowed !== null) out = out.where(sql<SqlBool>`${cfg.company} = ${narrowed}`);
  }
  return out as Q;
}

/**
 * Sorts from the whitelist (else 400), then the primary key. `reversed`: every direction turned, the primary
 * key's too, so the rows come in exactly the opposite order (a column's default NULLS LAST ascending is NULLS
 * FIRST descending, PostgreSQL's default for each).
 */
export function applyListOrder<Q extends AnyQuery, K extends string>(
  q: Q,
  cfg: ListConfig<K>,
  paging: Pick<PagingInput, 'sorts'>,
  reversed = false,
): Q {
  const sorts = paging.sorts === undefined ? [] : Array.isArray(paging.sorts) ? paging.sorts : [paging.sorts];
  let out: AnyQuery = q;
  const used = new Set<string>();
  for (const s of sorts) {
    const { column, dir } = parseSort(s);
    if (!(cfg.sortable as readonly string[]).includes(column))
      throw badRequest(undefined, { sorts: fieldMessages.sort });
    if (used.has(column)) continue;
    used.add(column);
    out = out.orderBy(sql`${cfg.columns[column as K].expr} ${sql.raw(reversed ? turned[dir] : dir)}`);
  }
  if (!used.has(cfg.primaryKey))
    out = out.orderBy(sql`${cfg.columns[cfg.primaryKey].expr} ${sql.raw(reversed ? 'desc' : 'asc')}`);
  return out as Q;
}

const turned = { asc: 'desc', desc: 'asc' } as const;

/**
 * Sorts from the whitelist (else 400), then the primary key; then offset and limit. The limit is written
 * into the text (a positive integer, bounded by each call's schema) and a first page has no
 * OFFSET: bound as parameters, every custom plan of a prepared page costs less than the generic one,
 * which must assume any limit and skipping a tenth of the rows, so PostgreSQL would plan the page again
 * on every call (db-prepared.test.ts). Further pages bind their offset (one text for all of them).
 */
export function applyListPage<Q extends AnyQuery, K extends string>(
  q: Q,
  cfg: ListConfig<K>,
  paging: PagingInput,
  reversed = false,
): Q {
  // What the contract's schemas let through; written into SQL text, so checked here once more.
  if (!Number.isSafeInteger(paging.limit) || paging.limit < 1)
    throw badRequest(undefined, { limit: validationMessages.invalid });
  const ordered = applyListOrder(q, cfg, paging, reversed);
  return (paging.offset > 0 ? ordered.offset(paging.offset) : ordered).limit(sql.lit(paging.limit)) as Q;
}

/** count(*) of a filtered query, as an int on PGlite and PostgreSQL alike. */
const selectCount = (q: AnyQuery) => q.select(sql<number>`count(*)::int`.as('count'));

/** count(*) of a filtered query, as a number. */
export async function countRows(q: AnyQuery): Promise<number> {
  return Number((await selectCount(q).executeTakeFirstOrThrow()).count);
}

/** Who asks for a list: the company scope of access/ (null: the super admin, every company). */
export interface ListScope {
  company: string | null;
}

/** A list of the console: its config and the rows it starts from (table, the caller's reach, the domain's own filters). */
export interface ListDefinition<
  K extends string,
  P extends K,
  F extends ListFilterInput,
  S extends ListScope,
  R extends AnyQuery,
> extends ListConfig<K> {
  primaryKey: P;
  /**
   * What of the caller the list reads; by default its company. `from` and `rows` see this alone, and it
   * is part of a statement's shape when the list is `fast` (db/statement-cache.ts), so it holds what
   * changes the statement (e.g. a role) and the company, which is a value.
   */
  scope?: (caller: S) => S;
  from: (db: Db, scope: S, filter: F) => AnyQuery;
  /** The page's rows, read and joined from its primary keys `p` (the deferred join of `page`). */
  rows: (db: Db, p: AliasedSelectQueryBuilder<Record<P, string>, 'p'>, scope: S) => R;
  /**
   * The list's rows as counted when written (migration list_counts), so a count need not walk every row.
   * `rows`: the rows of `list_counts as t` whose `n` sum to the count of a filter without a search, before
   * the deletion flag and the company, which `count` applies on t's columns as on the list's. `holds`: whether
   * those counts answer the filter; false when it (or the scope) narrows by what list_counts does not keep
   * (e.g. 正常のみ), and the rows are counted.
   */
  counted?: { rows: (db: Db, scope: S) => AnyQuery; holds: (filter: F, scope: S) => boolean };
  /**
   * Opt-in for the console's busiest lists (vehicles, customers, terminals, accounts): the count and the page
   * are compiled once per shape (db/statement-cache.ts) and, without a search, run as named prepared
   * statements on PostgreSQL (db/prepared.ts). Both cost more CPU than a page's own SQL without them
   * (bench/README.md, Measurements behind the code: Lists). It binds `from` and `rows` to the rules of
   * statement-cache.ts (the caller's values only as values, named columns, no `*`), which
   * test/list-statements.test.ts checks for every fast list. Without it a list runs plain Kysely.
   */
  fast?: true;
}

/** The lists defined with `fast`, with their statement caches (test/list-statements.test.ts verifies each one). */
export const fastLists: { config: ListConfig; statements: StatementCache }[] = [];

/** From this offset a page may be read from the list's end: below it, skipping costs less than the count. */
export const REVERSE_FROM = 5_000;

/**
 * The count and the page of a list, sharing one filter (applyListFilter over `from`). `page`
 * is a deferred join: the page's primary keys come from the list's own columns and indexes (a
 * deep OFFSET skips index entries, not rows), as the subquery `p`; `rows` reads and joins the
 * page's rows from it, and they are returned in the list's order. A `fast` list's statements are
 * compiled once per shape (db/statement-cache.ts), the company, a narrowing `companyId` and the offset
 * being the values filled in, and run without a search as prepared statements on PostgreSQL
 * (db/prepared.ts); any other list builds and runs its statements with Kysely on every call.
 */
export function defineList<
  K extends string,
  P extends K,
  F extends ListFilterInput,
  S extends ListScope,
  R extends AnyQuery,
>(def: ListDefinition<K, P, F, S, R>) {
  const narrow = def.scope ?? ((caller: S) => ({ company: caller.company }) as S);
  const filtered = (db: Db, scope: S, filter: F, search: ListSearch | null) =>
    applyListFilter(def.from(db, scope, filter), def, filter, scope.company, search);
  const countOf = (db: Db, scope: S, filter: F, search: ListSearch | null) =>
    selectCount(filtered(db, scope, filter, search));
  const pageOf = (db: Db, scope: S, query: F & PagingInput, search: ListSearch | null, reversed: boolean) => {
    const keys = filtered(db, scope, query, search).select(sql`${def.columns[def.primaryKey].expr}`.as(def.primaryKey));
    const p = applyListPage(keys, def, query, reversed).as('p') as AliasedSelectQueryBuilder<Record<P, string>, 'p'>;
    return applyListOrder(def.rows(db, p, scope), def, query);
  };
  /** list_counts' columns in place of the list's: the same deletion and company filter (applyListFilter). */
  const countedColumns: ListConfig<K> = {
    ...def,
    deleted: sql.ref('t.is_delete'),
    ...(def.company && { company: sql.ref('t.company_id') }),
  };
  const countedSum = (db: Db, scope: S, filter: F, counted: NonNullable<typeof def.counted>) =>
    applyListFilter(counted.rows(db, scope), countedColumns, filter, scope.company, null).select(
      sql<number>`coalesce(sum(t.n), 0)::int`.as('count'),
    );
  /** The kept counts, when they answer this filter: no search, and nothing they leave to the rows. */
  const countedFor = (filter: F, scope: S) =>
    def.counted?.holds(filter, scope) && listSearchOf(def, filter) === null ? def.counted : undefined;
  const statements = def.fast ? createStatementCache() : undefined;
  if (statements) fastLists.push({ config: def, statements });
  type Kind = 'count' | 'counted' | 'page' | 'reversed page';
  /** Builds a call's statement from its scope, input and search (compiled passes placeholders for the values). */
  type Build<I> = (scope: S, input: I, search: ListSearch | null) => AnyQuery;
  /**
   * A call's statement, compiled by shape: the values are the company, a narrowing companyId, a page's
   * offset and a search's text (as bound: the pair of characters, or the LIKE pattern); the rest of the
   * input, a search's column, way of matching and enum codes included, is the shape.
   */
  function compiled<I extends F>(kind: Kind, scope: S, input: I, search: ListSearch | null, build: Build<I>) {
    const page = kind.endsWith('page') && (input as Partial<PagingInput>).offset! > 0;
    const values = {
      company: scope.company ?? undefined,
      companyId: input.companyId || undefined,
      offset: page ? (input as Partial<PagingInput>).offset : undefined,
      search_text: search ? input.search_text : undefined,
      text: search?.text || undefined,
      pattern: search?.pattern || undefined,
    };
    const shape = JSON.stringify([
      kind,
      { ...scope, company: values.company === undefined ? null : '?' },
      {
        ...input,
        ...(search && { search_text: [search.match, search.codes] }),
        ...(values.companyId !== undefined && { companyId: '?' }),
        ...(page && { offset: '?' }),
      },
    ]);
    return statements!.compile(shape, values, (v) =>
      build(
        { ...scope, company: v.company ?? null },
        {
          ...input,
          ...(v.search_text !== undefined && { search_text: v.search_text }),
          ...(v.companyId !== undefined && { companyId: v.companyId }),
          ...(v.offset !== undefined && { offset: v.offset }),
        },
        search && { ...search, text: v.text ?? '', pattern: v.pattern ?? '' },
      ).compile(),
    );
  }
  /**
   * A call's statement run, its rows returned. A fast list's is compiled by shape and, without a search,
   * prepared (planned once per connection); a search is planned with its words every time, as the best plan
   * depends on them (a rare word through the trigram index, a common one along the sort's index).
   */
  const run = async <I extends F>(db: Db, kind: Kind, scope: S, input: I, build: Build<I>): Promise<unknown[]> => {
    const search = listSearchOf(def, input);
    if (!statements) return build(scope, input, search).execute();
    const statement = compiled(kind, scope, input, search, build);
    return (search ? await db.executeQuery(statement) : await executePrepared(db, statement)).rows;
  };
  /** The count of a filter: from the kept counts where they answer it (a sum of a few rows), else by counting the rows. */
  async function count(db: Db, caller: S, filter: F): Promise<number> {
    const scope = narrow(caller);
    const counted = countedFor(filter, scope);
    const rows = counted
      ? await run(db, 'counted', scope, filter, (s, f) => countedSum(db, s, f, counted))
      : await run(db, 'count', scope, filter, (s, f, search) => countOf(db, s, f, search));
    return Number((rows[0] as { count: number }).count);
  }
  return {
    config: def as ListConfig<K>,
    count,
    /**
     * A page past the middle of a counted list (offset REVERSE_FROM or more) is read in the reversed order from the list's
     * end, skipping the rows after it instead of those before it: the page at row 89,120 of 99,032 vehicles
     * skips 9,892 index entries, not 89,120. Its rows are the same, in the list's order (the outer ORDER BY).
     * The total it starts from is read just before, in a statement of its own: a row written in between
     * shifts such a page by one, as it shifts any page read after the count the console shows.
     */
    async page(db: Db, caller: S, query: F & PagingInput): Promise<Awaited<ReturnType<R['execute']>>> {
      const scope = narrow(caller);
      let paging: F & PagingInput = query;
      let reversed = false;
      if (query.offset >= REVERSE_FROM && countedFor(query, scope)) {
        // The filter alone: the paging is no part of the counted sum's statement (nor of its shape in the cache).
        const { offset: _offset, limit: _limit, sorts: _sorts, ...filter } = query;
        const total = await count(db, caller, filter as unknown as F);
        const fromEnd = total - query.offset - query.limit;
        if (total <= query.offset) return [] as Awaited<ReturnType<R['execute']>>;
        if (fromEnd < query.offset) {
          reversed = true;
          paging = { ...query, offset: Math.max(fromEnd, 0), limit: Math.min(query.limit, total - query.offset) };
        }
      }
      const rows = await run(db, reversed ? 'reversed page' : 'page', scope, paging, (s, q, search) =>
        pageOf(db, s, q, search, reversed),
      );
      return rows as Awaited<ReturnType<R['execute']>>;
    },
  };
}
