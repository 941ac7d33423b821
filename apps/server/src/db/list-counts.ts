import { sql } from 'kysely';
import type { Db } from './database.js';
import { countedLists, listCountRows } from './migrations/2026_12_16_090000_list_counts.js';

/**
 * Sums the lists' counts again from their tables (migration list_counts): each list's deltas are replaced by one
 * row per company, role and deletion flag, counted from the table. One REPEATABLE READ transaction reads the
 * deltas and the table in the same snapshot: a write committed before it is in both (its deltas deleted, its
 * rows counted), one committed after it in neither (its deltas, which the DELETE does not see, stay), so the
 * counts are exact whatever is written meanwhile. Only the triggers insert deltas and only this deletes them; an
 * instance finding another one recounting leaves it (false). Returns whether it recounted.
 */
export async function recountLists(db: Db): Promise<boolean> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const { rows } = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(hashtext('fleet:list-counts')) AS locked`.execute(tx);
      if (!rows[0]?.locked) return false;
      for (const counted of countedLists) {
        await sql`DELETE FROM list_counts WHERE list = ${counted.list}`.execute(tx);
        await sql
          .raw(`INSERT INTO list_counts (list, company_id, role, is_delete, n) ${listCountRows(counted)}`)
          .execute(tx);
      }
      return true;
    });
}
