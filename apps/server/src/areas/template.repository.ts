import { isSuperAdmin, type AreaKind, type AreaTemplate, type FromDb } from '@fleet/contract';
import type { Db } from '../db/database.js';
import type { NamedArea } from './areas.repository.js';
import type { Access } from '../access/access.js';

/**
 * Area templates: a company's own (company_id = theirs) and the head office's
 * shared ones (company_id null, made by the super admin), which every company
 * sees and only the super admin changes.
 */
const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** Whether the caller may change or delete a template of this company. */
export const mayEdit = (access: Access, companyId: string | null) =>
  isSuperAdmin(access) || (access.company_id !== null && companyId === access.company_id);

const visible = (db: Db, access: Access) => {
  let q = db.selectFrom('area_templates as t').leftJoin('accounts as a', 'a.account_id', 't.created_by');
  const scope = access.company;
  if (scope !== null) q = q.where((eb) => eb.or([eb('t.company_id', 'is', null), eb('t.company_id', '=', scope)]));
  return q.select([
    't.template_id',
    't.type',
    't.name',
    't.company_id',
    't.areas',
    't.created_by',
    'a.name as created_by_name',
    't.created_at',
    't.updated_at',
  ]);
};
type Row = Awaited<ReturnType<ReturnType<typeof visible>['execute']>>[number];

const toTemplate = (access: Access, r: Row): FromDb<typeof AreaTemplate> => ({
  template_id: r.template_id,
  type: r.type,
  name: r.name,
  company_id: r.company_id,
  areas: (json(r.areas) as NamedArea[]).map((a) => ({
    name: a.name ?? '',
    lat_min: a.lat_min,
    lat_max: a.lat_max,
    lng_min: a.lng_min,
    lng_max: a.lng_max,
  })),
  editable: mayEdit(access, r.company_id),
  created_by: r.created_by,
  created_by_name: r.created_by_name,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The company's templates first, then the shared ones; by name within each. */
export async function listTemplates(db: Db, access: Access, type: AreaKind): Promise<FromDb<typeof AreaTemplate>[]> {
  const rows = await visible(db, access)
    .where('t.type', '=', type)
    .orderBy((eb) => eb('t.company_id', 'is', null))
    .orderBy('t.name')
    .orderBy('t.template_id')
    .execute();
  return rows.map((r) => toTemplate(access, r));
}

/** A template the caller can see, or undefined (another company's is "not found"). */
export async function findTemplate(
  db: Db,
  access: Access,
  templateId: string,
): Promise<FromDb<typeof AreaTemplate> | undefined> {
  const row = await visible(db, access).where('t.template_id', '=', templateId).executeTakeFirst();
  return row && toTemplate(access, row);
}

export interface TemplateContent {
  type: AreaKind;
  name: string;
  areas: NamedArea[];
}

export async function insertTemplate(
  db: Db,
  t: TemplateContent & { template_id: string; company_id: string | null; created_by: string },
) {
  await db
    .insertInto('area_templates')
    .values({ ...t, areas: JSON.stringify(t.areas) })
    .execute();
}

export async function updateTemplate(db: Db, templateId: string, t: TemplateContent, now: Date) {
  await db
    .updateTable('area_templates')
    .set({ type: t.type, name: t.name, areas: JSON.stringify(t.areas), updated_at: now })
    .where('template_id', '=', templateId)
    .execute();
}

export async function deleteTemplate(db: Db, templateId: string) {
  await db.deleteFrom('area_templates').where('template_id', '=', templateId).execute();
}
