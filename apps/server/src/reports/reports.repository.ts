import type { Db } from '../db/database.js';

/** The number of the live vehicle carrying a terminal (within `company` unless null), else the IMEI itself. */
export async function carNumberOf(db: Db, carDataId: string, company: string | null): Promise<string> {
  let q = db
    .selectFrom('cars')
    .select('car_number')
    .where('car_data_id', '=', carDataId)
    .where('is_delete', '=', false);
  if (company !== null) q = q.where('company_id', '=', company);
  return (await q.orderBy('car_id').executeTakeFirst())?.car_number ?? carDataId;
}

/** A company's name for a report's heading (its id when it is gone). */
export async function companyNameOf(db: Db, companyId: string): Promise<string> {
  const row = await db
    .selectFrom('companies')
    .select('company_name')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.company_name ?? companyId;
}
