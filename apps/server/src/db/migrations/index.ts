import type { Migration } from 'kysely';
import * as initialSchema from './2026_11_23_000000_initial_schema.js';

/** Every migration, in order. Forward only: there are no down migrations. */
export const migrations: Record<string, Migration> = {
  '2026_11_23_000000_initial_schema': initialSchema,
};
