import { isDeepStrictEqual } from 'node:util';
import { createQueryId, type CompiledQuery } from 'kysely';

/**
 * Compiled statements by shape: building and compiling a list's page with Kysely cost more CPU than running
 * the statement on PostgreSQL (bench/README.md, Measurements behind the code: Lists); the same shape
 * of call (the same list, sorts, switches, caller kind) always compiles to the same text, only its
 * values differ. A shape is compiled once with placeholders where its values go and kept; a call
 * then fills the values into a copy of its parameters.
 *
 * What keeps one caller's values from reaching another's statement:
 * - The key is everything the builder reads except the values (the caller names them), so two calls
 *   that could compile differently never share a template.
 * - A placeholder is an object of its own, matched by identity in the compiled parameters: nothing a
 *   caller sends can equal it. Whatever turns it into text (a concatenation, `sql.raw`, `sql.lit`, a
 *   LIKE pattern) writes a NUL-marked name that is found in the text or a parameter, and that shape is
 *   never kept: it is compiled with its values on every call.
 * - With `statementCacheMode.verify` on, every call also compiles with its values and must produce what
 *   the template filled in produces (throws otherwise). test/list-statements.test.ts turns it on and calls
 *   every fast list (http/list-query.ts) through its sorts, searches, switches, callers and pages; it is
 *   off otherwise, since compiling every call again is the very cost the cache saves.
 */

const MARK = '\u0000';

/**
 * A placeholder for one named value. In place of a number it compares as 1 (an offset > 0 is a shape of
 * its own); in place of a string, whatever makes text of it (`+` included) writes its NUL-marked name.
 */
class Placeholder {
  constructor(
    readonly name: string,
    private readonly numeric: boolean,
  ) {}
  valueOf(): number | string {
    return this.numeric ? 1 : this.toString();
  }
  toString() {
    return `${MARK}${this.name}${MARK}`;
  }
  toJSON() {
    return this.toString();
  }
}

/** The values of a call by name; a value left undefined is not one (its absence is part of the shape). */
export type StatementValues = Record<string, string | number | undefined>;

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  parameters: readonly unknown[];
  /** For each parameter, the value's name it is filled from, or undefined: a constant of the shape. */
  slots: readonly (string | undefined)[];
}

/** How many shapes a cache keeps; past it, a new shape is compiled on every call (as without the cache). */
export const MAX_SHAPES = 1000;

export interface StatementCacheMode {
  /** Off: every call compiles with its values (the bench turns it off while it records what a call runs). */
  cache: boolean;
  /** Every call also compiled with its values and compared (test/list-statements.test.ts). */
  verify: boolean;
}

export const statementCacheMode: StatementCacheMode = { cache: true, verify: false };

const containsMark = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes(MARK)
    : value !== null && typeof value === 'object' && JSON.stringify(value).includes(MARK);

/**
 * A template from a compile with placeholders, or null when the shape cannot be kept: a placeholder
 * went into the text or into a parameter other than as itself.
 */
function templateOf(compiled: CompiledQuery, names: Map<Placeholder, string>): Template | null {
  if (compiled.sql.includes(MARK)) return null;
  const slots: (string | undefined)[] = [];
  for (const p of compiled.parameters) {
    const name = p instanceof Placeholder ? names.get(p) : undefined;
    if (name === undefined && containsMark(p)) return null;
    slots.push(name);
  }
  return { sql: compiled.sql, query: compiled.query, parameters: compiled.parameters, slots };
}

export interface StatementCache {
  /**
   * The compiled statement of a call: `build` compiles the call's query from its values (it is given
   * placeholders in their place the first time a shape is seen); `shape` is what else the build reads,
   * as a string (the caller makes it from every input but the values).
   */
  compile<V extends StatementValues>(shape: string, values: V, build: (values: V) => CompiledQuery): CompiledQuery;
  /** How many shapes it holds (tests). */
  readonly size: number;
  /** How many calls were compiled again and found equal under `verify` (tests). */
  readonly verified: number;
}

export function createStatementCache(mode: StatementCacheMode = statementCacheMode): StatementCache {
  const templates = new Map<string, Template | null>();
  let verified = 0;
  const fill = (t: Template, values: StatementValues): CompiledQuery => ({
    sql: t.sql,
    query: t.query,
    queryId: createQueryId(),
    parameters: t.slots.map((name, i) => (name === undefined ? t.parameters[i] : values[name])),
  });
  return {
    get size() {
      return templates.size;
    },
    get verified() {
      return verified;
    },
    compile(shape, values, build) {
      let template = mode.cache ? templates.get(shape) : null;
      if (template === undefined) {
        if (templates.size >= MAX_SHAPES) return build(values);
        const names = new Map<Placeholder, string>();
        const marked = {} as StatementValues;
        for (const [name, value] of Object.entries(values)) {
          if (value === undefined) continue;
          const p = new Placeholder(name, typeof value === 'number');
          names.set(p, name);
          marked[name] = p as unknown as string;
        }
        template = templateOf(build(marked as typeof values), names);
        templates.set(shape, template);
      }
      if (template === null) return build(values);
      const filled = fill(template, values);
      if (mode.verify) {
        const fresh = build(values);
        if (fresh.sql !== filled.sql || !isDeepStrictEqual(fresh.parameters, filled.parameters))
          throw new Error(`statement cache: the shape ${shape} compiles differently with its own values`);
        verified += 1;
      }
      return filled;
    },
  };
}
