import { isManager, isSuperAdmin } from './enums.js';

/** Who is calling, as the server's token check and the client's session know it. */
export interface Actor {
  account_id: string;
  role: number;
  company_id: string | null;
}

/**
 * The permission matrix of docs/product.md §6, in one place. The server enforces
 * it; the side menu mirrors it.
 */
export const capabilities = (a: Actor) => {
  const superAdmin = isSuperAdmin(a);
  const manager = isManager(a);
  return {
    superAdmin,
    /** Sees every company; everyone else sees their own company only. */
    allCompanies: superAdmin,
    seeCarsAndCustomers: true,
    editCarsAndCustomers: manager,
    engineAndAreas: true,
    registerCarsAndCustomers: superAdmin,
    devicesAndCompanies: superAdmin,
    manageAccounts: manager,
    ownSettings: true,
    /** Webhooks and their delivery log: administrators (role 0), of a company or the super admin. */
    manageWebhooks: a.role === 0,
    /** The notification history (mail, push, webhooks of the company's vehicles): administrators and managers. */
    notifyHistory: manager,
    /** A company's terminal-identity settings (the new-address alert): its administrators (role 0) and the super admin. */
    terminalIdentity: a.role === 0,
    /** The trip and stop detection rule of a company (運行判定の設定): its administrators (role 0) and the super admin. */
    tripSettings: a.role === 0,
  };
};
export type Capabilities = ReturnType<typeof capabilities>;

/** Roles an actor may give to accounts they manage (a manager: 1-2 only). */
export const assignableRoles = (a: Actor): number[] =>
  isSuperAdmin(a) || a.role === 0 ? [0, 1, 2] : a.role === 1 ? [1, 2] : [];
