import {
  companyAdd,
  companyDelete,
  companyGetDetail,
  companyList,
  companyListCount,
  companyMessages,
  companyUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import type { AppContext } from '../http/context.js';
import { conflict, notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import {
  countCompanies,
  findCompany,
  insertCompany,
  listCompanies,
  setCompanyDeleted,
  updateCompany,
} from './company.repository.js';

const superAdmin = (c: Capabilities) => c.devicesAndCompanies;

/** Franchise companies (docs/product.md §7 company_*): the super admin's alone. */
export function registerCompanyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, companyListCount, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => ({ count: await countCompanies(db, body) }),
  });
  registerCall(app, ctx, companyList, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => ({ list: await listCompanies(db, body) }),
  });

  registerCall(app, ctx, companyGetDetail, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => {
      const company = await findCompany(db, body.company_id);
      if (!company) throw notFound();
      return company;
    },
  });

  registerCall(app, ctx, companyAdd, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body, access }) => {
      await insertCompany(db, body.info).catch((e: unknown) => {
        throw isUniqueViolation(e)
          ? conflict(companyMessages.companyIdInUse, { company_id: companyMessages.companyIdInUse })
          : e;
      });
      await writeAudit(db, access, 'company.add', 'company', body.info.company_id, {
        company_name: body.info.company_name,
      });
      return { ok: true, company_id: body.info.company_id };
    },
  });

  registerCall(app, ctx, companyUpdate, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body, access }) => {
      if (!(await updateCompany(db, body.info))) throw notFound();
      await writeAudit(db, access, 'company.update', 'company', body.info.company_id, {
        company_name: body.info.company_name,
      });
      return { ok: true };
    },
  });

  registerCall(app, ctx, companyDelete, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body, access }) => {
      const company = await findCompany(db, body.company_id);
      if (!company) throw notFound();
      // A company with live accounts, customers or vehicles stays: deleting it would strand them.
      if (body.isDelete && company.account_count + company.user_count + company.car_count > 0)
        throw conflict(companyMessages.stillInUse);
      await setCompanyDeleted(db, body.company_id, body.isDelete);
      await writeAudit(db, access, body.isDelete ? 'company.delete' : 'company.restore', 'company', body.company_id);
      return { ok: true };
    },
  });
}
