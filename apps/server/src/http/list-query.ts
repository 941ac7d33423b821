import { fieldMessages, parseSort, validationMessages } from '@fleet/contract';
import { sql, type AliasedSelectQueryBuilder, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import { executePrepared } from '../db/prepared.js';
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
   * The column's stored bigrams (list_bigrams: adjacent character pairs of lower(col)),
   * GIN-indexed: they serve a search of exactly two characters, which trigrams cannot.
   */
  bigrams?: Expression<unknown>;
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

function searchCondition(column: ListColumn, text: string): Expression<SqlBool> {
  if (column.bigrams && [...text].length === 2) {
    // Two characters occur in col, case aside, exactly when lower(text) is one of lower(col)'s
    // bigrams: the GIN index finds those rows. The exact test after it, position() in lower(),
    // is what ILIKE computes for a pattern without wildcards (lower() of both, then a
    // substring match); unlike ILIKE it does not lead the planner to also read the trigram
    // index (in full, for two characters), and its estimate lets the first page come from
    // the primary key order when the pair is common.
    return sql<SqlBool>`${column.bigrams} @> array[lower(${text})]::text[] and position(lower(${text}) in lower(${column.expr})) > 0`;
  }
  if (!column.labels) return sql<SqlBool>`${column.expr} ilike ${containsPattern(text)} escape '\\'`;
  const needle = text.toLowerCase();
  const codes = Object.entries(column.labels)
    .filter(([code, label]) => code === text || label.toLowerCase().includes(needle))
    .map(([code]) => Number(code));
  return codes.length ? sql<SqlBool>`${column.expr} in (${sql.join(codes)})` : sql<SqlBool>`false`;
}

/**
 * Applies search, deleted and company filters; the same for a count and its list. `company` is the
 * caller's scope (Access.company): null for the super admin, who may narrow with `companyId`.
 */
export function applyListFilter<Q extends AnyQuery, K extends string>(
  q: Q,
  cfg: ListConfig<K>,
  filter: ListFilterInput,
  company: string | null,
): Q {
  let out: AnyQuery = q;
  const text = filter.search_text.trim();
  if (text) {
    const item = cfg.search[Number(filter.search_item)];
    if (!item) throw badRequest(undefined, { search_item: fieldMessages.searchItem });
    out = out.where(searchCondition(cfg.columns[item.key], text));
  }
  if (!filter.isDelete) out = out.where(sql<SqlBool>`${cfg.deleted} = false`);
  if (cfg.company) {
    // Everyone but the super admin is held to their own company, whatever companyId says.
    const narrowed = company ?? (filter.companyId || null);
    if (narrowed !== null) out = out.where(sql<SqlBool>`${cfg.company} = ${narrowed}`);
  }
  return out as Q;
}

/** Sorts from the whitelist (else 400), then the primary key. */
export function applyListOrder<Q extends AnyQuery, K extends string>(
  q: Q,
  cfg: ListConfig<K>,
  paging: Pick<PagingInput, 'sorts'>,
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
    out = out.orderBy(sql`${cfg.columns[column as K].expr} ${sql.raw(dir)}`);
  }
  if (!used.has(cfg.primaryKey)) out = out.orderBy(sql`${cfg.columns[cfg.primaryKey].expr} asc`);
  return out as Q;
}

/**
 * Sorts from the whitelist (else 400), then the primary key; then offset and limit. The limit is written
 * into the text (a positive integer, bounded by each call's schema) and a first page has no
 * OFFSET: bound as parameters, every custom plan of a prepared page costs less than the generic one,
 * which must assume any limit and skipping a tenth of the rows, so PostgreSQL would plan the page again
 * on every call (db-prepared.test.ts). Further pages bind their offset (one text for all of them).
 */
export function applyListPage<Q extends AnyQuery, K extends string>(q: Q, cfg: ListConfig<K>, paging: PagingInput): Q {
  // What the contract's schemas let through; written into SQL text, so checked here once more.
  if (!Number.isSafeInteger(paging.limit) || paging.limit < 1)
    throw badRequest(undefined, { limit: validationMessages.invalid });
  const ordered = applyListOrder(q, cfg, paging);
  return (paging.offset > 0 ? ordered.offset(paging.offset) : ordered).limit(sql.lit(paging.limit)) as Q;
}

/**
 * count(*) of a filtered query, as a number on PGlite and PostgreSQL alike. With `db`, run as a
 * prepared statement (executePrepared: a list's count is planned once per connection).
 */
export async function countRows(q: AnyQuery, db?: Db): Promise<number> {
  const counted = q.select(sql<number>`count(*)::int`.as('count'));
  const row = db ? (await executePrepared(db, counted.compile())).rows[0] : await counted.executeTakeFirstOrThrow();
  return Number((row as { count: number }).count);
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
> extends ListConfig<K> {
  primaryKey: P;
  from: (db: Db, scope: S, filter: F) => AnyQuery;
}

/**
 * The count and the page of a list, sharing one filter (applyListFilter over `from`). `page`
 * is a deferred join: the page's primary keys come from the list's own columns and indexes (a
 * deep OFFSET skips index entries, not rows), as the subquery `p`; `rows` reads and joins the
 * page's rows from it, and they are returned in the list's order. Without a search both run as
 * prepared statements on PostgreSQL (db/prepared.ts): their texts depend on the sorts and switches.
 */
export function defineList<K extends string, P extends K, F extends ListFilterInput, S extends ListScope = ListScope>(
  def: ListDefinition<K, P, F, S>,
) {
  /**
   * Whether a plan made without the values serves every call of the text: not with a search, whose
   * best plan depends on the words (a rare one through the trigram index, a common one along the
   * sort's index), so a search is planned with its values every time.
   */
  const generic = (filter: ListFilterInput) => filter.search_text.trim() === '';
  const filtered = (db: Db, scope: S, filter: F) =>
    applyListFilter(def.from(db, scope, filter), def, filter, scope.company);
  return {
    config: def as ListConfig<K>,
    count: (db: Db, scope: S, filter: F): Promise<number> =>
      countRows(filtered(db, scope, filter), generic(filter) ? db : undefined),
    async page<Q extends AnyQuery>(
      db: Db,
      scope: S,
      query: F & PagingInput,
      rows: (p: AliasedSelectQueryBuilder<Record<P, string>, 'p'>) => Q,
    ): Promise<Awaited<ReturnType<Q['execute']>>> {
      const keys = filtered(db, scope, query).select(sql`${def.columns[def.primaryKey].expr}`.as(def.primaryKey));
      const p = applyListPage(keys, def, query).as('p') as AliasedSelectQueryBuilder<Record<P, string>, 'p'>;
      const q = applyListOrder(rows(p), def, query);
      // A page of 20 rows by primary key costs more to plan than to run: prepared (executePrepared).
      const found = generic(query) ? (await executePrepared(db, q.compile())).rows : await q.execute();
      return found as Awaited<ReturnType<Q['execute']>>;
    },
  };
}
