import {
  accountMessages,
  managedRoles,
  validationMessages as m,
  type AccountEditForm,
  type AccountForm,
  type PasswordResetForm,
  defaultEngineControl,
  type Role,
} from '@fleet/contract';
import type { z } from 'zod';
import { writeAudit } from '../audit/audit.repository.js';
import { beginLoginAttempt, markLoginSucceeded } from '../credentials/login-limit.js';
import { hashPassword, verifyPassword } from '../credentials/password.js';
import { sessionsChanged } from '../sessions/session-cache.js';
import { revokeAccountSessions, revokeOtherSessions } from '../sessions/session.repository.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import type { Access } from '../access/access.js';
import { retireAccountTokens } from '../password-reset/password-reset.repository.js';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import {
  accountExists,
  findPasswordHash,
  findManagedAccount,
  insertAccount,
  setAccountDeleted,
  updateAccount,
} from './account.repository.js';

const refuse = (field: string, message: string) => new AppError(403, 'FORBIDDEN', message, { [field]: message });

/** A manager may give roles 1-2 only; a company admin and the super admin any role. */
function checkRole(access: Access, role: number) {
  if (!managedRoles(access).includes(role as Role)) throw refuse('role', accountMessages.roleNotAllowed);
}

async function checkUnique(db: Db, info: { account_id: string; email: string }, existing: boolean) {
  if (!existing && (await accountExists(db, 'account_id', info.account_id)))
    throw conflict(accountMessages.accountIdInUse, { account_id: accountMessages.accountIdInUse });
  if (await accountExists(db, 'email', info.email, existing ? info.account_id : undefined))
    throw conflict(accountMessages.emailInUse, { email: accountMessages.emailInUse });
}

/** Two concurrent adds can both pass checkUnique; the unique indexes decide. */
const mapUniqueViolation = (e: unknown): never => {
  if (isUniqueViolation(e, 'accounts_email_key'))
    throw conflict(accountMessages.emailInUse, { email: accountMessages.emailInUse });
  if (isUniqueViolation(e))
    throw conflict(accountMessages.accountIdInUse, { account_id: accountMessages.accountIdInUse });
  throw e;
};

/**
 * A new password ends what the old one opened: every reset link of the account, and its sessions,
 * except the one that made the change when the account changed its own password. Inside the
 * transaction of the change: the caller says `sessionsChanged` once it committed.
 */
export async function endOldCredentials(trx: Db, accountId: string, keepTokenHash: string | null) {
  await retireAccountTokens(trx, accountId);
  if (keepTokenHash) await revokeOtherSessions(trx, accountId, keepTokenHash);
  else await revokeAccountSessions(trx, accountId);
}

/** `hashLog2N`: config's passwordHashLog2N, the cost of the new password's hash (also below). */
export async function addAccount(db: Db, access: Access, info: z.output<typeof AccountForm>, hashLog2N: number) {
  checkRole(access, info.role);
  const company_id = await access.companyFor(info.company_id, accountMessages);
  await checkUnique(db, info, false);
  const hash = await hashPassword(info.password, hashLog2N);
  const { account_id, name, email, role } = info;
  const engine_control = info.engine_control ?? defaultEngineControl(role);
  await insertAccount(db, { account_id, name, email, role, company_id, engine_control }, hash).catch(
    mapUniqueViolation,
  );
  await writeAudit(db, access, 'account.add', 'account', account_id, { role, company_id, engine_control });
}

export async function editAccount(db: Db, access: Access, info: z.output<typeof AccountEditForm>, hashLog2N: number) {
  const target = await findManagedAccount(db, access, info.account_id);
  if (!target) throw notFound();
  const self = target.account_id === access.account_id;
  if (self && (info.role !== target.role || (info.company_id ?? target.company_id) !== target.company_id))
    throw refuse('role', accountMessages.selfRole);
  if (info.role !== target.role) checkRole(access, info.role);
  const engine_control = info.engine_control ?? target.engine_control;
  if (self && engine_control !== target.engine_control)
    throw refuse('engine_control', accountMessages.selfEngineControl);
  const company_id = self ? target.company_id : await access.companyFor(info.company_id, accountMessages);
  await checkUnique(db, info, true);
  const password_hash = info.password ? await hashPassword(info.password, hashLog2N) : undefined;
  await db.transaction().execute(async (trx) => {
    await updateAccount(trx, target.account_id, {
      name: info.name,
      email: info.email,
      role: info.role,
      company_id,
      engine_control,
      ...(password_hash ? { password_hash } : {}),
    }).catch(mapUniqueViolation);
    // A new role, company or password ends the sessions that were signed in under the old one.
    if (password_hash) await endOldCredentials(trx, target.account_id, self ? access.session.token_hash : null);
    else if (info.role !== target.role || company_id !== target.company_id)
      await revokeAccountSessions(trx, target.account_id);
    await writeAudit(trx, access, 'account.update', 'account', target.account_id, {
      role: info.role,
      company_id,
      password_changed: !!password_hash,
    });
    if (engine_control !== target.engine_control)
      await writeAudit(trx, access, 'account.engine_control', 'account', target.account_id, { engine_control });
  });
  // Name, role, company, engine right or password: its sessions are read again (or are gone) on every instance.
  await sessionsChanged(db, { accountId: target.account_id });
}

export async function deleteAccount(db: Db, access: Access, accountId: string, isDelete: boolean) {
  if (accountId === access.account_id) throw refuse('account_id', accountMessages.selfDelete);
  const target = await findManagedAccount(db, access, accountId);
  if (!target) throw notFound();
  await db.transaction().execute(async (trx) => {
    await setAccountDeleted(trx, accountId, isDelete);
    if (isDelete) await revokeAccountSessions(trx, accountId);
    await writeAudit(trx, access, isDelete ? 'account.delete' : 'account.restore', 'account', accountId);
  });
  await sessionsChanged(db, { accountId });
}

/** Own password (current one required) or, for a manager, the password of an account they manage. */
export async function resetPassword(
  db: Db,
  access: Access,
  info: z.output<typeof PasswordResetForm>,
  ip: string,
  hashLog2N: number,
) {
  const targetId = info.account_id ?? access.account_id;
  if (targetId === access.account_id) {
    if (!info.current_password) throw badRequest(undefined, { current_password: m.required });
    // The current password is a password check like a sign-in: the same limits, the same counters.
    const attempt = await beginLoginAttempt(db, ip, access.account_id);
    if (attempt === undefined) throw tooManyRequests(accountMessages.tooManyPasswordAttempts);
    const hash = await findPasswordHash(db, access.account_id);
    if (!hash || !(await verifyPassword(info.current_password, hash)))
      throw badRequest(accountMessages.currentPasswordWrong, {
        current_password: accountMessages.currentPasswordWrong,
      });
    await markLoginSucceeded(db, attempt);
    const password_hash = await hashPassword(info.password, hashLog2N);
    await db.transaction().execute(async (trx) => {
      await updateAccount(trx, access.account_id, { password_hash });
      await endOldCredentials(trx, access.account_id, access.session.token_hash);
      await writeAudit(trx, access, 'account.password', 'account', access.account_id);
    });
    await sessionsChanged(db, { accountId: access.account_id });
    return;
  }
  if (!access.caps.manageAccounts) throw forbidden();
  const target = await findManagedAccount(db, access, targetId);
  if (!target || target.isDelete) throw notFound();
  const password_hash = await hashPassword(info.password, hashLog2N);
  await db.transaction().execute(async (trx) => {
    await updateAccount(trx, targetId, { password_hash });
    await endOldCredentials(trx, targetId, null);
    await writeAudit(trx, access, 'account.password', 'account', targetId);
  });
  await sessionsChanged(db, { accountId: targetId });
}
