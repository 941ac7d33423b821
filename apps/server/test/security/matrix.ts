import { createECDH } from 'node:crypto';
import {
  DEVICE_BATCH_PATH,
  LIVE_PATH,
  LOG_EXPORT_PATH,
  REPORT_EXPORT_PATH,
  OSMAND_PATH,
  accountAdd,
  accountDelete,
  accountExistCheck,
  accountGetDetail,
  accountList,
  accountListCount,
  accountNotify,
  accountNotifyUpdate,
  accountUpdate,
  areaTemplateApplyCars,
  areaTemplateDelete,
  areaTemplateUpdate,
  auditLogList,
  carAdd,
  carApplyAreaTemplate,
  carAvailableAreasUpdate,
  carAvailableUpdate,
  carDataSync,
  carDelete,
  carDeleteReserveEngineCmd,
  carDeleteReserveEngineCmdRequest,
  carDisableAreasUpdate,
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carGetAreaStatus,
  carGetAvailableAreas,
  carGetAvailableData,
  carGetBatteryLog,
  carGetConnectionLog,
  carGetDetail,
  carGetDisableAreas,
  carGetEngineLog,
  carGetErrorLog,
  carGetGpsLog,
  carGetLatestState,
  carGetNewid,
  carGetObd2Log,
  carGetReserveCmd,
  carGetReserveCmdHistory,
  carGetSensorLog,
  carList,
  carListCount,
  carMapList,
  carReserveCmd,
  carStatusUpdate,
  carUpdate,
  carUserDeviceAdd,
  checkToken,
  clientConfig,
  companyAdd,
  companyDelete,
  companyGetDetail,
  companyList,
  companyListCount,
  companyTotpPolicy,
  companyTotpPolicyUpdate,
  companyTerminalPolicy,
  companyTerminalPolicyUpdate,
  companyUpdate,
  deviceAdd,
  deviceDelete,
  deviceExistCheck,
  deviceGetDetail,
  deviceList,
  deviceListCount,
  deviceUpdate,
  getAreaTemplates,
  getReserveRequests,
  liveTicket,
  login,
  logout,
  mailOutboxList,
  me,
  notifyHistoryList,
  notifyHistoryListCount,
  passwordReset,
  passwordResetByToken,
  pushPublicKey,
  pushSubscribe,
  pushUnsubscribe,
  resetPasswordEmail,
  sessionAccountId,
  sessionCarId,
  sessionCompanyId,
  sessionDataId,
  sessionDeviceId,
  sessionUserId,
  stepUp,
  totpDisable,
  totpEnable,
  totpRecoveryCodes,
  totpSetup,
  totpStatus,
  userAdd,
  userDelete,
  userExistCheck,
  userGetDetail,
  userList,
  userListCount,
  userUpdate,
  webhookAdd,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
  webhookUpdate,
  carTrips,
  carPlaces,
  placeSearch,
  defaultTripSettings,
  fleetSummary,
  tripSettings,
  tripSettingsUpdate,
  reportSubscription,
  reportSubscriptionUpdate,
  type Call,
  zoneAdd,
  zoneCarsAdd,
  zoneList,
  zoneUpdate,
  accountGroups,
  accountGroupsUpdate,
  carGroups,
  carGroupsUpdate,
  groupAdd,
  groupCarsAdd,
  groupDelete,
  groupList,
  groupUpdate,
  groupZones,
  groupZonesUpdate,
  groupNotify,
  groupNotifyUpdate,
  zoneDelete,
  carZones,
  carZonesUpdate,
  alertList,
  alertCount,
  alertAck,
  alertAckMany,
  carEvents,
} from '@fleet/contract';
import { FIXTURE_PASSWORD, accounts } from '../helper.js';
import {
  AREA,
  NEW_PASSWORD,
  accountIdOf,
  companyOf,
  fixtureOf,
  freshId,
  freshImei,
  otherAccountOf,
  templateOf,
  type Role,
  type SignedInRole,
  type Target,
  type World,
} from './world.js';

/**
 * The authorization matrix (docs/product.md §6), one
 * row per registered route: the status each role gets for a valid request
 * about a record of its own company ("own", company A) and of another company
 * ("other", company B). authorization-matrix.test.ts walks every cell against
 * the real app, and fails when a registered route has no row here.
 *
 * Roles: anonymous (no token), superAdmin (role 0, no company), adminA
 * (company admin: role 0 of company A), managerA (role 1), staffA (common, role 2), operatorA (common,
 * role 2, given the engine-control right). Their sessions have stepped up (password re-entered), so a
 * prohibit is judged on role, right and company; authorization-matrix.test.ts walks the step-up
 * dimension with sessions that have not.
 */
export type Status = number;
type Cell = readonly [own: Status, other: Status];
/** operatorA (role 2 with the engine-control right) answers like staffA unless a row says otherwise. */
export type Expectation = Record<Exclude<Role, 'operatorA'>, Cell> & { operatorA?: Cell };
export const expected = (e: Expectation, role: Role): Cell =>
  role === 'operatorA' ? (e.operatorA ?? e.staffA) : e[role];

export interface CellRequest {
  body?: unknown;
  query?: Record<string, string>;
  /** A token other than the role's usual one (e.g. a fresh session for a call that ends it). */
  token?: string;
}

export interface MatrixRow {
  /** 'METHOD /path', as Fastify registered it. */
  route: string;
  expect: Expectation;
  /** A request that is valid for the target company's record; mutating rows make fresh records per cell. */
  request: (w: World, target: Target, role: Role) => CellRequest | Promise<CellRequest>;
  /** Public calls answer about whatever credentials they are given; their answers are not checked for leaks. */
  public?: boolean;
  /** Streams (server-sent events) are called over a real socket. */
  stream?: boolean;
  /** Cells one after another: the call allows one at a time per account (the CSV export). */
  serial?: boolean;
}

const same = (s: Status) => [s, s] as const;

/** Anyone, signed in or not. */
const PUBLIC: Expectation = {
  anonymous: same(200),
  superAdmin: same(200),
  adminA: same(200),
  managerA: same(200),
  staffA: same(200),
};
/** Every signed-in user; nothing record-specific. */
const SIGNED_IN: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: same(200),
  managerA: same(200),
  staffA: same(200),
};
/** Read and act on one's own company's records; another company's are "not found". */
const OWN_COMPANY: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 404],
  managerA: [200, 404],
  staffA: [200, 404],
};
/** Edit and delete: managers (roles 0-1) in their own company; common users may not. */
const EDITORS: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 404],
  managerA: [200, 404],
  staffA: same(403),
};
/**
 * Engine permit / prohibit and reservations: every role of the company, but a common user only with
 * the engine-control right (docs/product.md §6); another company's vehicle is "not found" first.
 */
const ENGINE_CONTROL: Expectation = { ...OWN_COMPANY, staffA: [403, 404], operatorA: [200, 404] };
/** Software and settings updates of a terminal: the super admin's alone; another company's terminal is "not found". */
const TERMINAL_UPDATES: Expectation = { ...OWN_COMPANY, adminA: [403, 404], managerA: [403, 404], staffA: [403, 404] };
/** A company's TOTP policy: its company admin and the super admin; another company's is "not found". */
const COMPANY_ADMINS: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 404],
  managerA: same(403),
  staffA: same(403),
};
/** Enable / disable TOTP with a code that cannot be right (no fixture account turns it on): refused for everyone. */
const WRONG_CODE: Expectation = {
  anonymous: same(401),
  superAdmin: same(400),
  adminA: same(400),
  managerA: same(400),
  staffA: same(400),
};
/** GPS terminals, companies, registration, the outbox and audit log: the super admin's alone. */
const SUPER_ADMIN: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: same(403),
  managerA: same(403),
  staffA: same(403),
};
/** Account lists and checks: managers. */
const ACCOUNT_MANAGERS: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: same(200),
  managerA: same(200),
  staffA: same(403),
};
/** Another account of the company (a common user): its managers see it, a common user does not. */
const ANOTHER_ACCOUNT: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 404],
  managerA: [200, 404],
  staffA: same(404),
};
/** Registering an account: a company user may only name their own company (403 for another). */
const ACCOUNT_ADD: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 403],
  managerA: [200, 403],
  staffA: same(403),
};
/** "own" is the caller's own account here; anybody else's is refused, the super admin's included. */
const OWN_ACCOUNT_ONLY: Expectation = {
  anonymous: same(401),
  superAdmin: [200, 403],
  adminA: [200, 403],
  managerA: [200, 403],
  staffA: [200, 403],
};
/** Console tokens do not open the device gateway: terminals sign in with their own secret. */
const TERMINALS_ONLY: Expectation = {
  anonymous: same(401),
  superAdmin: same(401),
  adminA: same(401),
  managerA: same(401),
  staffA: same(401),
};

/** A contract call's row as Fastify registers it: 'POST /api/...'. */
export const route = (call: Call) => `POST ${call.path}` as const;
const post = (
  call: Call,
  expect: Expectation,
  request: MatrixRow['request'],
  extra: Partial<MatrixRow> = {},
): MatrixRow => ({
  route: route(call),
  expect,
  request,
  ...extra,
});
/** A POST that is no contract call (the device gateway, the CSV export's form post). */
const postPath = (
  path: string,
  expect: Expectation,
  request: MatrixRow['request'],
  extra: Partial<MatrixRow> = {},
): MatrixRow => ({ route: `POST ${path}`, expect, request, ...extra });
const none = () => ({ body: {} });
/** Webhooks and their delivery log: administrators (role 0) of a company or the super admin. */
const ADMINS: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: same(200),
  managerA: same(403),
  staffA: same(403),
};
/** A fresh webhook of the target company. */
const webhookOf = async (w: World, target: Target) => {
  const row = await w.db
    .insertInto('webhooks')
    .values({
      company_id: companyOf[target],
      url: 'https://hooks.example.jp/fleet',
      secret: 'matrix-secret-0123456789',
      events: '["command"]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
};
/** A browser's keys as PushSubscription.toJSON() gives them (65-byte P-256 point, 16-byte secret). */
const PUSH_KEYS = {
  p256dh: createECDH('prime256v1').generateKeys('base64url'),
  auth: Buffer.alloc(16, 9).toString('base64url'),
};
/** A fresh push subscription of the account; its endpoint. */
const subscriptionOf = async (w: World, accountId: string) => {
  const endpoint = `https://push.example.jp/${freshId('sub')}`;
  await w.db
    .insertInto('push_subscriptions')
    .values({ account_id: accountId, endpoint, p256dh: PUSH_KEYS.p256dh, auth: PUSH_KEYS.auth })
    .execute();
  return endpoint;
};
/** One's own browser subscription; anybody else's (whatever the role) is "not found". */
const OWN_SUBSCRIPTION: Expectation = {
  anonymous: same(401),
  superAdmin: [200, 404],
  adminA: [200, 404],
  managerA: [200, 404],
  staffA: [200, 404],
};
/** A GET (or HEAD) anyone may make, answering every role alike. */
const openGet = (path: string, method: 'GET' | 'HEAD' = 'GET', status: Cell = same(200)): MatrixRow => ({
  route: `${method} ${path}`,
  expect: { anonymous: status, superAdmin: status, adminA: status, managerA: status, staffA: status },
  request: () => ({}),
  public: true,
});
const carOf = (_w: World, target: Target) => ({ body: { car_id: fixtureOf(target).car_id } });
const imeiOf = (_w: World, target: Target) => ({ body: { car_data_id: fixtureOf(target).car_data_id } });
const listOf = (_w: World, target: Target) => ({ body: { companyId: companyOf[target] } });
const selfOr = (target: Target, role: Role) =>
  target === 'own'
    ? role === 'anonymous'
      ? accounts.staffA.account_id
      : accountIdOf(role as SignedInRole)
    : otherAccountOf('other');
const logCalls = [
  carGetConnectionLog,
  carGetEngineLog,
  carGetErrorLog,
  carGetBatteryLog,
  carGetSensorLog,
  carGetObd2Log,
  carGetGpsLog,
];
/**
 * Trips and stops of a terminal: like the logs, but a terminal the caller cannot see (another company's, or
 * none at all) is bad input (400, 指定された端末が見つかりません), the same answer for both.
 */
const TRIP_READERS: Expectation = {
  anonymous: same(401),
  superAdmin: same(200),
  adminA: [200, 400],
  managerA: [200, 400],
  staffA: [200, 400],
};
const oneDay = { from: '2026-11-23', to: '2026-11-23' };

const circleZone = { name: '本社', shape: 'circle' as const, lat: 35.68, lng: 139.76, radius_m: 300 };
/** A fresh vehicle group of the target company. */
const groupOf = async (w: World, target: Target) => {
  const group_id = freshId('grp', target);
  await w.db.insertInto('vehicle_groups').values({ group_id, company_id: companyOf[target], name: group_id }).execute();
  return group_id;
};
/** A fresh zone of the target company. */
const zoneOf = async (w: World, target: Target) => {
  const zone_id = freshId('zone', target);
  await w.db
    .insertInto('zones')
    .values({
      zone_id,
      company_id: companyOf[target],
      name: 'z',
      shape: 'circle',
      color: '#e8590c',
      lat: 35.68,
      lng: 139.76,
      radius_m: 300,
    })
    .execute();
  return zone_id;
};
/** A fresh alert about the target company's vehicle. */
const alertOf = async (w: World, target: Target) => {
  const row = await w.db
    .insertInto('alerts')
    .values({
      dedupe_key: `matrix:${target}:${Math.random()}`,
      company_id: companyOf[target],
      car_id: fixtureOf(target).car_id,
      car_data_id: fixtureOf(target).car_data_id,
      kind: 'vibration',
      what: '振動',
      lat: null,
      lng: null,
      happened_at: new Date(),
    })
    .returning('alert_id')
    .executeTakeFirstOrThrow();
  return String(row.alert_id);
};
const exportQuery = (target: Target) => ({ kind: 'gps', car_data_id: fixtureOf(target).car_data_id });
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

const newCarUser = (target: Target) => ({
  user_id: freshId('us', target),
  first_name: '新規',
  name: '顧客',
  company_id: companyOf[target],
});
const newDevice = (target: Target) => ({
  car_device_id: freshId('dv', target),
  car_data_id: freshImei(target),
  password: 'terminal-pass-1',
});
const newAccount = (target: Target) => {
  const account_id = freshId('ac', target);
  return {
    account_id,
    name: '新規 太郎',
    email: `${account_id.toLowerCase()}@example.jp`,
    role: 2,
    company_id: companyOf[target],
    password: NEW_PASSWORD,
    password_confirm: NEW_PASSWORD,
  };
};

export const matrix: MatrixRow[] = [
  // Sessions ------------------------------------------------------------------
  post(
    login,
    PUBLIC,
    (_w, target) => ({ body: { username: target === 'own' ? 'admin-a' : 'admin-b', password: FIXTURE_PASSWORD } }),
    { public: true },
  ),
  post(logout, SIGNED_IN, async (w, _t, role) => ({
    body: {},
    ...(role === 'anonymous' ? {} : { token: await w.freshToken(role) }),
  })),
  post(
    checkToken,
    PUBLIC,
    (_w, target) => ({ body: { account_id: target === 'own' ? 'admin-a' : 'admin-b', token: 'not-a-live-token' } }),
    { public: true },
  ),
  post(me, SIGNED_IN, none),
  post(stepUp, SIGNED_IN, () => ({ body: { password: FIXTURE_PASSWORD } })),
  post(clientConfig, PUBLIC, none, { public: true }),
  // 二段階認証: every call acts on the caller's own account; the policy on a company.
  post(totpStatus, SIGNED_IN, none),
  post(totpSetup, SIGNED_IN, none),
  post(totpEnable, WRONG_CODE, () => ({ body: { otp: '000000' } })),
  post(totpDisable, WRONG_CODE, () => ({ body: { password: FIXTURE_PASSWORD, otp: '000000' } })),
  post(totpRecoveryCodes, WRONG_CODE, () => ({ body: { password: FIXTURE_PASSWORD, otp: '000000' } })),
  post(companyTotpPolicy, COMPANY_ADMINS, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(companyTotpPolicyUpdate, COMPANY_ADMINS, (_w, target) => ({
    body: { company_id: companyOf[target], require_totp: false },
  })),
  post(companyTerminalPolicy, COMPANY_ADMINS, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(companyTerminalPolicyUpdate, COMPANY_ADMINS, (_w, target) => ({
    body: { company_id: companyOf[target], alert_new_terminal_address: false },
  })),
  post(sessionAccountId, ANOTHER_ACCOUNT, (_w, target) => ({ body: { account_id: otherAccountOf(target) } })),
  post(sessionCompanyId, OWN_COMPANY, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(sessionCarId, OWN_COMPANY, carOf),
  post(sessionUserId, OWN_COMPANY, (_w, target) => ({ body: { user_id: fixtureOf(target).user_id } })),
  post(sessionDataId, OWN_COMPANY, imeiOf),
  post(sessionDeviceId, OWN_COMPANY, (_w, target) => ({
    body: { car_device_id: fixtureOf(target).car_device_id },
  })),

  // Password reset by mail (public by nature) ------------------------------------
  post(
    resetPasswordEmail,
    PUBLIC,
    (_w, target) => ({ body: { email: target === 'own' ? 'admin-a@example.jp' : 'admin-b@example.jp' } }),
    { public: true },
  ),
  post(
    passwordResetByToken,
    PUBLIC,
    async (w, target) => ({
      body: { token: await w.fresh.resetToken(target), password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
    }),
    { public: true },
  ),

  // Admin accounts ----------------------------------------------------------------
  post(accountListCount, ACCOUNT_MANAGERS, listOf),
  post(accountList, ACCOUNT_MANAGERS, listOf),
  post(accountGetDetail, ANOTHER_ACCOUNT, (_w, target) => ({ body: { account_id: otherAccountOf(target) } })),
  post(accountExistCheck, ACCOUNT_MANAGERS, (_w, target) => ({
    body: { check_item: 'account_id', check_value: otherAccountOf(target) },
  })),
  post(accountAdd, ACCOUNT_ADD, (_w, target) => ({ body: { info: newAccount(target) } })),
  post(accountUpdate, EDITORS, async (w, target) => {
    const { account_id, email } = await w.fresh.account(target);
    return { body: { info: { account_id, name: '更新 次郎', email, role: 2, company_id: companyOf[target] } } };
  }),
  post(accountDelete, EDITORS, async (w, target) => ({
    body: { account_id: (await w.fresh.account(target)).account_id, isDelete: true },
  })),
  post(passwordReset, EDITORS, async (w, target) => ({
    body: {
      info: {
        account_id: (await w.fresh.account(target)).account_id,
        password: NEW_PASSWORD,
        password_confirm: NEW_PASSWORD,
      },
    },
  })),
  post(accountNotify, OWN_ACCOUNT_ONLY, (_w, target, role) => ({ body: { account_id: selfOr(target, role) } })),
  post(accountNotifyUpdate, OWN_ACCOUNT_ONLY, (_w, target, role) => ({
    body: { account_id: selfOr(target, role), info: {} },
  })),

  // Franchise companies -------------------------------------------------------------
  post(companyListCount, SUPER_ADMIN, none),
  post(companyList, SUPER_ADMIN, none),
  post(companyGetDetail, SUPER_ADMIN, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(companyAdd, SUPER_ADMIN, (_w, target) => ({
    body: { info: { company_id: freshId('co', target), company_name: '新規加盟店' } },
  })),
  post(companyUpdate, SUPER_ADMIN, async (w, target) => ({
    body: { info: { company_id: await w.fresh.company(target), company_name: '更新加盟店' } },
  })),
  post(companyDelete, SUPER_ADMIN, async (w, target) => ({
    body: { company_id: await w.fresh.company(target), isDelete: true },
  })),

  // GPS terminals ---------------------------------------------------------------------
  post(deviceListCount, SUPER_ADMIN, none),
  post(deviceList, SUPER_ADMIN, none),
  post(deviceGetDetail, SUPER_ADMIN, (_w, target) => ({
    body: { car_device_id: fixtureOf(target).car_device_id },
  })),
  post(deviceExistCheck, SUPER_ADMIN, (_w, target) => ({
    body: { check_item: 'car_data_id', check_value: fixtureOf(target).car_data_id },
  })),
  post(deviceAdd, SUPER_ADMIN, (_w, target) => ({ body: { info: newDevice(target) } })),
  post(deviceUpdate, SUPER_ADMIN, async (w, target) => ({
    body: { info: { ...(await w.fresh.device(target)), car_type: '更新', password: '' } },
  })),
  post(deviceDelete, SUPER_ADMIN, async (w, target) => ({
    body: { ...(await w.fresh.device(target)), isDelete: true },
  })),

  // Customers ---------------------------------------------------------------------------
  post(userListCount, SIGNED_IN, listOf),
  post(userList, SIGNED_IN, listOf),
  post(userGetDetail, OWN_COMPANY, (_w, target) => ({ body: { user_id: fixtureOf(target).user_id } })),
  post(userExistCheck, SUPER_ADMIN, (_w, target) => ({ body: { check_value: fixtureOf(target).user_id } })),
  post(userAdd, SUPER_ADMIN, (_w, target) => ({ body: { info: newCarUser(target) } })),
  post(userUpdate, EDITORS, async (w, target) => ({
    body: {
      info: { user_id: await w.fresh.user(target), first_name: '更新', name: '顧客', company_id: companyOf[target] },
    },
  })),
  post(userDelete, EDITORS, async (w, target) => ({
    body: { user_id: await w.fresh.user(target), isDelete: true },
  })),

  // Vehicles ------------------------------------------------------------------------------
  post(carListCount, SIGNED_IN, listOf),
  post(carList, SIGNED_IN, listOf),
  // A company asking for another company's map still gets its own vehicles (tested in car-map.test.ts).
  post(carMapList, SIGNED_IN, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(carGetDetail, OWN_COMPANY, carOf),
  post(carGetNewid, SUPER_ADMIN, none),
  post(carAdd, SUPER_ADMIN, async (w, target) => ({
    body: {
      info: {
        car_id: freshId('car', target),
        car_number: '品川 300 あ 56-78',
        user_id: await w.fresh.user(target),
        car_device_id: null,
      },
    },
  })),
  post(carUpdate, EDITORS, async (w, target) => {
    const car = await w.fresh.car(target, false);
    return {
      body: {
        info: { car_id: car.car_id, car_number: '品川 300 い 99-99', user_id: car.user_id, car_device_id: null },
      },
    };
  }),
  post(carStatusUpdate, EDITORS, (_w, target) => ({
    body: { car_id: fixtureOf(target).car_id, car_status: 1 },
  })),
  post(carDelete, EDITORS, async (w, target) => ({
    body: { car_id: (await w.fresh.car(target, false)).car_id, isDelete: true },
  })),
  post(carUserDeviceAdd, SUPER_ADMIN, (_w, target) => ({
    body: {
      user: newCarUser(target),
      device: newDevice(target),
      car: { car_id: freshId('car', target), car_number: '品川 300 う 11-22' },
    },
  })),

  // Vehicle groups (docs/groups.md) ---------------------------------------------------------
  post(groupList, SIGNED_IN, none),
  post(groupAdd, ACCOUNT_ADD, (_w, target) => ({
    body: { info: { name: freshId('group', target), company_id: companyOf[target] } },
  })),
  post(groupUpdate, EDITORS, async (w, target) => ({
    body: { group_id: await groupOf(w, target), info: { name: freshId('renamed', target) } },
  })),
  post(groupDelete, EDITORS, async (w, target) => ({ body: { group_id: await groupOf(w, target) } })),
  post(groupNotify, EDITORS, async (w, target) => ({ body: { group_id: await groupOf(w, target) } })),
  post(groupNotifyUpdate, EDITORS, async (w, target) => ({ body: { group_id: await groupOf(w, target), info: {} } })),
  post(carGroups, OWN_COMPANY, carOf),
  post(carGroupsUpdate, EDITORS, async (w, target) => ({
    body: { car_id: fixtureOf(target).car_id, group_ids: [await groupOf(w, target)] },
  })),
  post(groupCarsAdd, EDITORS, async (w, target) => ({
    body: { group_id: await groupOf(w, target), car_ids: [fixtureOf(target).car_id] },
  })),
  post(groupZones, OWN_COMPANY, async (w, target) => ({ body: { group_id: await groupOf(w, target) } })),
  post(groupZonesUpdate, EDITORS, async (w, target) => ({
    body: { group_id: await groupOf(w, target), zone_ids: [await zoneOf(w, target)] },
  })),
  post(accountGroups, EDITORS, (_w, target) => ({ body: { account_id: otherAccountOf(target) } })),
  post(accountGroupsUpdate, EDITORS, (_w, target) => ({
    body: { account_id: otherAccountOf(target), group_ids: null },
  })),

  // Zones and the alert inbox (docs/zones.md) -----------------------------------------------
  post(zoneList, SIGNED_IN, none),
  post(zoneAdd, ACCOUNT_ADD, (_w, target) => ({ body: { info: { ...circleZone, company_id: companyOf[target] } } })),
  post(zoneUpdate, EDITORS, async (w, target) => ({ body: { zone_id: await zoneOf(w, target), info: circleZone } })),
  post(zoneDelete, EDITORS, async (w, target) => ({ body: { zone_id: await zoneOf(w, target) } })),
  post(carZones, OWN_COMPANY, carOf),
  post(carZonesUpdate, EDITORS, async (w, target) => ({
    body: { car_id: fixtureOf(target).car_id, zone_ids: [await zoneOf(w, target)] },
  })),
  post(zoneCarsAdd, EDITORS, async (w, target) => ({
    body: { zone_ids: [await zoneOf(w, target)], car_ids: [fixtureOf(target).car_id] },
  })),
  post(alertList, SIGNED_IN, none),
  post(alertCount, SIGNED_IN, none),
  post(alertAck, OWN_COMPANY, async (w, target) => ({ body: { alert_id: await alertOf(w, target) } })),
  post(alertAckMany, OWN_COMPANY, async (w, target) => ({ body: { alert_ids: [await alertOf(w, target)] } })),
  post(carEvents, OWN_COMPANY, (_w, target) => ({ body: { car_data_id: fixtureOf(target).car_data_id, ...oneDay } })),

  // Telemetry ------------------------------------------------------------------------------
  ...logCalls.map((call) => post(call, OWN_COMPANY, imeiOf)),
  post(carGetLatestState, OWN_COMPANY, imeiOf),
  post(carTrips, TRIP_READERS, (_w, target) => ({
    body: { car_data_id: fixtureOf(target).car_data_id, ...oneDay },
  })),
  post(carPlaces, TRIP_READERS, (_w, target) => ({
    body: { car_data_id: fixtureOf(target).car_data_id, ...oneDay },
  })),
  post(placeSearch, SIGNED_IN, () => ({ body: { q: '丸の内' } })),
  post(fleetSummary, OWN_COMPANY, (_w, target) => ({ body: { ...oneDay, company_id: companyOf[target] } })),
  post(tripSettings, COMPANY_ADMINS, (_w, target) => ({ body: { company_id: companyOf[target] } })),
  post(tripSettingsUpdate, COMPANY_ADMINS, (_w, target) => ({
    body: { company_id: companyOf[target], settings: defaultTripSettings() },
  })),
  postPath(
    REPORT_EXPORT_PATH,
    TRIP_READERS,
    (_w, target) => ({
      body: { kind: 'daily', format: 'csv', car_data_id: fixtureOf(target).car_data_id, date: oneDay.from },
    }),
    { serial: true },
  ),
  post(reportSubscription, SIGNED_IN, none),
  post(reportSubscriptionUpdate, SIGNED_IN, () => ({ body: { daily: false, monthly: false } })),
  post(carDataSync, OWN_COMPANY, (_w, target) => ({
    body: { car_id: fixtureOf(target).car_id, car_data_id: fixtureOf(target).car_data_id },
  })),
  {
    route: `GET ${LOG_EXPORT_PATH}`,
    expect: OWN_COMPANY,
    request: (_w, target) => ({ query: exportQuery(target) }),
    serial: true,
  },
  {
    route: `HEAD ${LOG_EXPORT_PATH}`,
    expect: OWN_COMPANY,
    request: (_w, target) => ({ query: exportQuery(target) }),
    serial: true,
  },
  postPath(LOG_EXPORT_PATH, OWN_COMPANY, (_w, target) => ({ body: exportQuery(target) }), { serial: true }),
  post(liveTicket, SIGNED_IN, none),
  { route: `GET ${LIVE_PATH}`, expect: SIGNED_IN, request: none, stream: true },

  // Engine control -------------------------------------------------------------------------
  post(carGetReserveCmd, OWN_COMPANY, imeiOf),
  post(carGetReserveCmdHistory, OWN_COMPANY, imeiOf),
  post(carEngineStateReserve, ENGINE_CONTROL, async (w, target) => ({
    body: { car_data_id: (await w.fresh.car(target)).car_data_id, cmd_info: { cmd: 1 } },
  })),
  post(carReserveCmd, TERMINAL_UPDATES, async (w, target) => ({
    body: { car_data_id: (await w.fresh.car(target)).car_data_id, cmd_type: 'req_client_update', cmd_info: {} },
  })),
  post(carDeleteReserveEngineCmd, ENGINE_CONTROL, async (w, target) => ({
    body: { car_data_id: (await w.fresh.reservedCommand(target)).car_data_id },
  })),
  post(getReserveRequests, OWN_COMPANY, carOf),
  post(carEngineStateReserveRequest, ENGINE_CONTROL, async (w, target) => ({
    body: { request: { car_id: (await w.fresh.car(target)).car_id, cmd: 1, execute_at: inAnHour() } },
  })),
  post(carDeleteReserveEngineCmdRequest, ENGINE_CONTROL, async (w, target) => ({
    body: { request_id: await w.fresh.reservationRequest(target) },
  })),

  // Areas and templates ----------------------------------------------------------------------
  post(carGetAvailableData, OWN_COMPANY, carOf),
  post(carAvailableUpdate, OWN_COMPANY, (_w, target) => ({
    body: {
      car_id: fixtureOf(target).car_id,
      available_data: { lat_min: 35, lat_max: 36, lng_min: 139, lng_max: 140 },
    },
  })),
  post(carGetAvailableAreas, OWN_COMPANY, carOf),
  post(carAvailableAreasUpdate, OWN_COMPANY, (_w, target) => ({
    body: { car_id: fixtureOf(target).car_id, available_areas: [AREA] },
  })),
  post(carGetDisableAreas, OWN_COMPANY, carOf),
  post(carDisableAreasUpdate, OWN_COMPANY, (_w, target) => ({
    body: { car_id: fixtureOf(target).car_id, disable_areas: [AREA] },
  })),
  post(carGetAreaStatus, OWN_COMPANY, carOf),
  post(getAreaTemplates, SIGNED_IN, () => ({ body: { type: 'available' } })),
  post(areaTemplateUpdate, OWN_COMPANY, async (w, target) => ({
    body: {
      template: {
        template_id: await w.fresh.template(target),
        type: 'available',
        name: '更新テンプレート',
        areas: [AREA],
      },
    },
  })),
  post(areaTemplateDelete, OWN_COMPANY, async (w, target) => ({
    body: { template_id: await w.fresh.template(target) },
  })),
  post(carApplyAreaTemplate, OWN_COMPANY, (_w, target) => ({
    body: { car_id: fixtureOf(target).car_id, template_id: templateOf(target) },
  })),
  post(areaTemplateApplyCars, OWN_COMPANY, (_w, target) => ({
    body: { car_ids: [fixtureOf(target).car_id], template_id: templateOf(target) },
  })),

  // Mail and audit -------------------------------------------------------------------------------
  post(mailOutboxList, SUPER_ADMIN, none),

  // Webhooks: administrators (role 0); another company's receiver is "not found" -----------------
  post(webhookList, ADMINS, none),
  post(webhookAdd, ADMINS, () => ({ body: { url: 'https://hooks.example.jp/fleet', events: ['command'] } })),
  post(webhookUpdate, COMPANY_ADMINS, async (w, target) => ({
    body: { id: await webhookOf(w, target), url: 'https://hooks.example.jp/updated', events: ['terminal.offline'] },
  })),
  post(webhookDelete, COMPANY_ADMINS, async (w, target) => ({ body: { id: await webhookOf(w, target) } })),
  post(webhookDeliveryList, ADMINS, none),
  post(auditLogList, SUPER_ADMIN, none),

  // Browser push: everyone their own browsers; the notification history for managers of their company -------
  post(pushPublicKey, SIGNED_IN, none),
  post(pushSubscribe, SIGNED_IN, (_w, target) => ({
    body: { endpoint: `https://push.example.jp/${freshId('sub', target)}`, keys: PUSH_KEYS },
  })),
  // "own": a browser the caller subscribed; "other": another account's browser, "not found" for anybody.
  post(pushUnsubscribe, OWN_SUBSCRIPTION, async (w, target, role) => ({
    body: {
      endpoint: await subscriptionOf(
        w,
        target === 'own' && role !== 'anonymous' ? accountIdOf(role as SignedInRole) : otherAccountOf(target),
      ),
    },
  })),
  post(notifyHistoryListCount, ACCOUNT_MANAGERS, listOf),
  post(notifyHistoryList, ACCOUNT_MANAGERS, listOf),

  // Device gateway ----------------------------------------------------------------------------------
  postPath(DEVICE_BATCH_PATH, TERMINALS_ONLY, () => ({ body: { seq: 1, records: [] } })),
  // OsmAnd / Traccar Client: the terminal's password in the path, its IMEI in the query; no console token opens it.
  ...(['GET', 'POST'] as const).map((method): MatrixRow => ({
    route: `${method} ${OSMAND_PATH}/:password`,
    expect: TERMINALS_ONLY,
    // A new IMEI per cell: the failures of one cell must not reach the per-terminal limit of the next.
    request: () => ({ query: { id: freshImei(), lat: '35', lon: '139' } }),
  })),

  // Operations: probes, metrics (no METRICS_TOKEN in the tests), the API description and its reading UI -----
  ...['/healthz', '/readyz', '/metrics', '/api/openapi.json'].map((path) => openGet(path)),
  ...['/healthz', '/readyz', '/api/version'].map((path) => openGet(path, 'HEAD')),
  openGet('/api/version'),
  ...['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/swagger-initializer.js'].flatMap(
    (path) => [openGet(path), openGet(path, 'HEAD')],
  ),
  // Swagger UI's own paths: its index.html redirects to the page; the static files' wildcard, called as is, finds no file.
  openGet('/api/docs/static/index.html', 'GET', same(302)),
  openGet('/api/docs/static/index.html', 'HEAD', same(302)),
  openGet('/api/docs/*', 'GET', same(404)),
  openGet('/api/docs/*', 'HEAD', same(404)),
];
