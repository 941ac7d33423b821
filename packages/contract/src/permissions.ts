import { isManager, isSuperAdmin, roles, type Role } from './enums.js';

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
    /** Webhooks and their delivery log: administrators, of a company or the super admin. */
    manageWebhooks: isAdministrator(a),
    /** The notification history (mail, push, webhooks of the company's vehicles): administrators and managers. */
    notifyHistory: manager,
    /** A company's terminal-identity settings (the new-address alert): its administrators (role 0) and the super admin. */
    terminalIdentity: isAdministrator(a),
    /** The trip and stop detection rule of a company (運行判定の設定): its administrators (role 0) and the super admin. */
    tripSettings: isAdministrator(a),
  };
};
export type Capabilities = ReturnType<typeof capabilities>;

/**
 * The company a list, the map or a report reads: the caller's own company whatever it asks (`scope`, the
 * company it is limited to); the super admin (`scope` null) the one it names, or every company.
 */
export const narrowedCompany = (scope: string | null, requested: string | null | undefined): string | null =>
  scope ?? (requested || null);

/** An administrator (role 0): a company's, or the super admin. */
export const isAdministrator = (a: { role: number }) => a.role === roles.admin;

/**
 * Roles of the accounts an actor manages, sees beside their own and may give: an administrator all of
 * them, a manager managers and common accounts, a common account none.
 */
export const managedRoles = (a: { role: number }): Role[] => {
  if (isAdministrator(a)) return [roles.admin, roles.manager, roles.common];
  if (a.role === roles.manager) return [roles.manager, roles.common];
  return [];
};

/**
 * エンジン制御権限 of an account that does not say (a new account's form, an account written by the seed or
 * the CLI): administrators and managers have it, common accounts not. The database's
 * `account_engine_right()` (migration account_rights) is the same rule.
 */
export const defaultEngineControl = (role: number): boolean => isManager({ role });
