import { capabilities } from '@fleet/contract';
import type { Db } from '../db/database.js';
import type { AuthedActor } from '../http/context.js';
import { AppError, badRequest } from '../http/errors.js';

export interface CompanyFieldMessages {
  otherCompany: string;
  companyMissing: string;
}

/**
 * The company a record is written with. The super admin chooses any live
 * company (or none); everyone else always writes their own company, and
 * naming another one is refused (403), never silently moved.
 */
export async function assignCompany(
  db: Db,
  actor: AuthedActor,
  requested: string | null,
  messages: CompanyFieldMessages,
): Promise<string | null> {
  if (!capabilities(actor).allCompanies) {
    if (requested && requested !== actor.company_id)
      throw new AppError(403, 'FORBIDDEN', messages.otherCompany, { company_id: messages.otherCompany });
    return actor.company_id;
  }
  if (requested === null) return null;
  const live = await db
    .selectFrom('companies')
    .select('company_id')
    .where('company_id', '=', requested)
    .where('is_delete', '=', false)
    .executeTakeFirst();
  if (!live) throw badRequest(messages.companyMissing, { company_id: messages.companyMissing });
  return requested;
}
