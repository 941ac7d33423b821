import { randomBytes } from 'node:crypto';
import {
  areaMessages,
  areaTemplateApplyCars,
  areaTemplateDelete,
  areaTemplateUpdate,
  carApplyAreaTemplate,
  getAreaTemplates,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { forbidden, notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { replaceCarAreas, replaceCarsAreas, visibleCar } from './areas.service.js';
import { deleteTemplate, findTemplate, insertTemplate, listTemplates, updateTemplate } from './template.repository.js';
import type { Access } from '../access/access.js';

const engineAndAreas = (c: Capabilities) => c.engineAndAreas;

/** A template the caller may change: another company's is 404, a shared one (for a company user) 403. */
async function editableTemplate(db: Db, access: Access, templateId: string) {
  const template = await findTemplate(db, access, templateId);
  if (!template) throw notFound(areaMessages.templateNotFound);
  if (!template.editable) throw forbidden(areaMessages.templateReadOnly);
  return template;
}

/** Area templates (docs/product.md §7 get_area_templates, area_template_*) and applying one to a vehicle. */
export function registerAreaTemplateRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, getAreaTemplates, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => ({ list: await listTemplates(db, access, body.type) }),
  });

  registerCall(app, ctx, areaTemplateUpdate, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const { template_id, ...content } = body.template;
      if (template_id) {
        await editableTemplate(db, access, template_id);
        await updateTemplate(db, template_id, content, new Date());
        await writeAudit(db, access, 'area_template.save', 'area_template', template_id, {
          name: content.name,
          type: content.type,
        });
        return { ok: true, template_id };
      }
      const id = randomBytes(12).toString('base64url');
      // The super admin's templates belong to no company: shared with every company.
      await insertTemplate(db, {
        ...content,
        template_id: id,
        company_id: access.company_id,
        created_by: access.account_id,
      });
      await writeAudit(db, access, 'area_template.save', 'area_template', id, {
        name: content.name,
        type: content.type,
      });
      return { ok: true, template_id: id };
    },
  });

  registerCall(app, ctx, areaTemplateDelete, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await editableTemplate(db, access, body.template_id);
      await deleteTemplate(db, body.template_id);
      await writeAudit(db, access, 'area_template.delete', 'area_template', body.template_id);
      return { ok: true };
    },
  });

  registerCall(app, ctx, carApplyAreaTemplate, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await visibleCar(db, access, body.car_id);
      const template = await findTemplate(db, access, body.template_id);
      if (!template) throw notFound(areaMessages.templateNotFound);
      await replaceCarAreas(db, body.car_id, template.type, template.areas);
      await writeAudit(db, access, 'area.template_apply', 'area', body.car_id, {
        template_id: body.template_id,
        type: template.type,
      });
      return { ok: true, type: template.type, count: template.areas.length };
    },
  });

  registerCall(app, ctx, areaTemplateApplyCars, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const carIds = [...new Set(body.car_ids)];
      const template = await findTemplate(db, access, body.template_id);
      if (!template) throw notFound(areaMessages.templateNotFound);
      await replaceCarsAreas(db, access, carIds, template.type, template.areas);
      await writeAudit(db, access, 'area.template_apply', 'area_template', body.template_id, {
        car_ids: carIds,
        type: template.type,
      });
      return { ok: true, type: template.type, count: carIds.length };
    },
  });
}
