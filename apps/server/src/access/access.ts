import {
  ENGINE_CMD_IDX,
  capabilities,
  narrowedCompany,
  engineMessages,
  type Capabilities,
  type ReservedCommandType,
} from '@fleet/contract';
import type { SelectionKey } from '../sessions/session.repository.js';
import type { Db } from '../db/database.js';
import type { AuthedActor } from '../http/context.js';
import { AppError, badRequest, forbidden, notFound } from '../http/errors.js';
import { companyScope, isVisible, terminalWindows, type Scope } from './visibility.js';
import type { TimeWindow } from './terminal-time.js';

export interface CompanyFieldMessages {
  otherCompany: string;
  companyMissing: string;
}

/**
 * What one signed-in request may see and do (docs/product.md §6), made once
 * per request from the token by `registerCall` and handed to the handler. Every route takes its scope
 * from here and gives repositories `company` (or the terminal windows): no route or repository decides
 * scope on its own. A record outside the scope is "not found" (404); a call the role may not make is 403.
 */
export interface Access extends AuthedActor, Scope {
  caps: Capabilities;
  /** The company the caller is limited to; null for the super admin, who sees every company. */
  company: string | null;
  /**
   * The company a read is narrowed to: the caller's own whatever it asks; the super admin the one it
   * names, or (none named) every company.
   */
  companyFilter(requested: string | null | undefined): string | null;
  /**
   * For a group-limited caller (docs/groups.md), 404 unless every vehicle a call's input names (`car_id`,
   * else `car_data_id` / `car_device_id`, at its top or in `info`; each of `car_ids`) is in its groups.
   * `registerCall` runs it before every handler, so no call that takes a vehicle can forget it.
   */
  seeVehiclesOf(input: unknown): Promise<void>;
  /** 403 unless the role's capabilities allow it. */
  require(check: (caps: Capabilities) => boolean, message?: string): void;
  /** Whether a record exists and lies in the caller's scope. */
  sees(kind: SelectionKey, id: string): Promise<boolean>;
  /** 404 unless the record exists and lies in the caller's scope. */
  see(kind: SelectionKey, id: string): Promise<void>;
  /**
   * The stretches of a terminal's telemetry the caller may read (its periods on the company's vehicles),
   * or null for all of it. Asked once per request and terminal.
   */
  windows(carDataId: string): Promise<TimeWindow[] | null>;
  /**
   * The company a record is written with: the super admin chooses any live company (or none); everyone
   * else writes their own, and naming another one is refused (403), never silently moved. Inside a
   * transaction pass it as `db` (PGlite has one connection: a query beside it would wait forever).
   */
  companyFor(requested: string | null, messages: CompanyFieldMessages, db?: Db): Promise<string | null>;
  /** Engine permit / prohibit needs エンジン制御権限; software and settings updates are the super admin's. */
  mayCommand(type: ReservedCommandType): void;
  /** The same right for a command slot (deleting its waiting command). */
  mayCommandSlot(cmdIdx: number): void;
  /** A prohibit (cmd 1), now or scheduled, needs a step-up within the last minutes; a permit does not. */
  steppedUpFor(cmd: number, now: Date): void;
}

export function createAccess(db: Db, actor: AuthedActor): Access {
  const caps = capabilities(actor);
  const company = companyScope(actor);
  // The super admin sees every company; a limit to groups holds within one company only.
  const groups = company === null ? null : (actor.session.group_ids ?? null);
  const windows = new Map<string, Promise<TimeWindow[] | null>>();

  const mayCommand = (type: ReservedCommandType) => {
    if (type !== 'set_engine_boot_permission') {
      if (!caps.superAdmin) throw forbidden(engineMessages.superAdminOnly);
      return;
    }
    if (!actor.engine_control) throw forbidden(engineMessages.noEngineRight);
  };

  // The actor's fields written out: V8 (Node 20) makes `{ ...actor, <methods> }` in a slow path, a hundred times
  // the cost of this way and a tenth of the route code's CPU time in a list call (bench/README.md, Measurements behind the code: Lists).
  const access: Access = {
    account_id: actor.account_id,
    role: actor.role,
    company_id: actor.company_id,
    name: actor.name,
    engine_control: actor.engine_control,
    stepped_up_until: actor.stepped_up_until,
    session: actor.session,
    caps,
    company,
    groups,
    async seeVehiclesOf(input) {
      if (groups === null) return;
      for (const [kind, id] of vehiclesNamed(input)) await access.see(kind, id);
    },
    companyFilter: (requested) => narrowedCompany(company, requested),
    require(check, message) {
      if (!check(caps)) throw forbidden(message);
    },
    sees: (kind, id) => isVisible(db, access, kind, id),
    async see(kind, id) {
      if (!(await isVisible(db, access, kind, id))) throw notFound();
    },
    windows(carDataId) {
      let found = windows.get(carDataId);
      if (!found) windows.set(carDataId, (found = terminalWindows(db, company, carDataId)));
      return found;
    },
    async companyFor(requested, messages, executor = db) {
      if (!caps.allCompanies) {
        if (requested && requested !== actor.company_id)
          throw new AppError(403, 'FORBIDDEN', messages.otherCompany, { company_id: messages.otherCompany });
        return actor.company_id;
      }
      if (requested === null) return null;
      const live = await executor
        .selectFrom('companies')
        .select('company_id')
        .where('company_id', '=', requested)
        .where('is_delete', '=', false)
        .executeTakeFirst();
      if (!live) throw badRequest(messages.companyMissing, { company_id: messages.companyMissing });
      return requested;
    },
    mayCommand,
    mayCommandSlot: (cmdIdx) =>
      mayCommand(cmdIdx === ENGINE_CMD_IDX ? 'set_engine_boot_permission' : 'req_client_update'),
    steppedUpFor(cmd, now) {
      if (cmd !== 1) return;
      if (actor.stepped_up_until !== null && actor.stepped_up_until.getTime() > now.getTime()) return;
      throw new AppError(403, 'STEP_UP_REQUIRED', engineMessages.stepUpRequired);
    },
  };
  return access;
}

type VehicleKey = 'car_id' | 'car_data_id' | 'car_device_id';
const VEHICLE_KEYS: readonly VehicleKey[] = ['car_id', 'car_data_id', 'car_device_id'];

/** The vehicles a call's input names: its car_id, else its terminal (at the top or in `info`), and its car_ids. */
function vehiclesNamed(input: unknown): [VehicleKey, string][] {
  const found: [VehicleKey, string][] = [];
  const look = (o: unknown) => {
    if (!o || typeof o !== 'object') return;
    const r = o as Record<string, unknown>;
    const key = VEHICLE_KEYS.find((k) => typeof r[k] === 'string' && r[k] !== '');
    if (key) found.push([key, r[key] as string]);
    if (Array.isArray(r.car_ids)) for (const id of r.car_ids) if (typeof id === 'string') found.push(['car_id', id]);
  };
  look(input);
  look((input as { info?: unknown } | null)?.info);
  return found;
}
