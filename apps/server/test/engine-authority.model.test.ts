import { randomBytes, scryptSync } from 'node:crypto';
import {
  accountDelete,
  accountUpdate,
  cancelReasons,
  cancelReasonText,
  carDelete,
  carDeleteReserveEngineCmd,
  carDeleteReserveEngineCmdRequest,
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carGetAreaStatus,
  carGetDetail,
  carGetEngineLog,
  carGetGpsLog,
  carGetLatestState,
  carGetReserveCmd,
  carGetReserveCmdHistory,
  carList,
  carUpdate,
  engineMessages,
  getReserveRequests,
  stepUp as stepUpCall,
  type Call,
  type CallRequest,
  type CommandStatus,
  type DeviceBatchResponse,
  type RequestStatus,
  defaultEngineControl,
} from '@fleet/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/sessions/session.repository.js';
import { createRequestScheduler } from '../src/engine/request-scheduler.js';
import {
  FIXTURE_PASSWORD,
  accounts,
  companyA,
  companyB,
  callAs,
  createTestApp,
  fleet,
  seedFixtures,
  type CallOutcome,
  type TestApp,
} from './helper.js';
import { sendBatch } from './telemetry-support.js';

/**
 * Issue 12, model-based: random sequences of what operators, the super admin, the scheduler and the
 * terminals do to two companies' vehicles, terminals and accounts, run against the real app and a
 * model of what should happen. After every step:
 *
 * (a) no company reads anything of a terminal outside its terminal periods: a position reported
 *     while the terminal was on another company's vehicle, or a command or request made for another
 *     company, is never in any answer (vehicle list, detail, area status, slot, history, requests,
 *     logs), whichever role reads;
 * (b) a terminal is only ever handed a command whose creator, at that moment, exists, holds the
 *     engine right and belongs to the company of the live vehicle the terminal is on (or is the
 *     super admin);
 * and every command and request is in the state the model says, so at the end (c) nothing is lost:
 * each command was delivered, deleted, expired or cancelled with a reason, each request fired,
 * failed or was cancelled with a reason.
 *
 * FUZZ_RUNS sets the number of runs (default 25), FUZZ_SEED replays one (CI fixes it: .ci/run).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const seed = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};
const MAX_COMMANDS = 20;
/** MODEL_STATS=1 prints what the runs did: steps, answers, how commands and requests ended. */
const stats = process.env.MODEL_STATS ? new Map<string, number>() : null;
const count = (key: string) => stats?.set(key, (stats.get(key) ?? 0) + 1);

// The world ---------------------------------------------------------------------------------------

const who = ['superAdmin', 'adminA', 'managerA', 'staffA', 'adminB', 'managerB', 'staffB'] as const;
type Who = (typeof who)[number];
const extraAccounts = {
  managerB: {
    account_id: 'manager-b',
    name: '別社 四郎',
    email: 'manager-b@example.jp',
    role: 1,
    company_id: companyB,
  },
  staffB: { account_id: 'staff-b', name: '別社 五郎', email: 'staff-b@example.jp', role: 2, company_id: companyB },
} as const;
const accountRows: Record<
  Who,
  { account_id: string; name: string; email: string; role: number; company_id: string | null }
> = {
  ...accounts,
  ...extraAccounts,
};

const T1 = fleet.A.car_data_id;
const T2 = fleet.B.car_data_id;
const terminalIds = [T1, T2] as const;
const deviceOf: Record<string, string> = { [T1]: fleet.A.car_device_id, [T2]: fleet.B.car_device_id };
const carIds = ['car-a', 'car-b', 'car-a2', 'car-b2'] as const;
type CarId = (typeof carIds)[number];
const userOf: Record<string, string> = { [companyA]: fleet.A.user_id, [companyB]: fleet.B.user_id };
const otherCompany = (c: string) => (c === companyA ? companyB : companyA);
const CAR_NUMBER = '品川 500 さ 11-22';

/** The fixture password hashed cheaply (scrypt N=2^10), so a step-up costs a millisecond, not half a second. */
function cheapHash(password: string) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 10, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}
const PASSWORD_HASH = cheapHash(FIXTURE_PASSWORD);

// The model ---------------------------------------------------------------------------------------

interface MAccount {
  key: Who;
  id: string;
  role: number;
  company: string | null;
  /** accounts.engine_control; null: the role's default. */
  engine: boolean | null;
  deleted: boolean;
  token: string;
  steppedUp: boolean;
}
interface MCar {
  id: CarId;
  company: string;
  terminal: string | null;
  deleted: boolean;
}
/**
 * A stretch of a terminal's time: on a live vehicle of a company (open), or on none (company null
 * until a vehicle takes the terminal: its period starts where the previous one ended, so that
 * company then reads what the terminal sent meanwhile).
 */
interface Segment {
  company: string | null;
  open: boolean;
}
interface MTerminal {
  segments: Segment[];
  /** Segment of the newest record that moves device_latest_state.recorded_at (gps, battery, a successful result). */
  lastRecordSeg: number | null;
  /** Segment of the last batch of any kind (last_seen_at). */
  lastBatchSeg: number | null;
}
interface MReport {
  imei: string;
  kind: 'gps' | 'battery' | 'result';
  lat: number | null;
  commandId: number | null;
  seg: number;
}
interface MCommand {
  id: number;
  imei: string;
  carId: string;
  company: string;
  createdBy: string;
  status: CommandStatus;
  reason: string | null;
  expiresAt: number;
}
interface MRequest {
  id: string;
  carId: string;
  company: string;
  createdBy: string;
  executeAt: number;
  status: RequestStatus;
  reason: string | null;
  cancelledBy: string | null;
  commandId: number | null;
}
interface Model {
  accounts: Record<Who, MAccount>;
  cars: Record<CarId, MCar>;
  terminals: Record<string, MTerminal>;
  reports: MReport[];
  commands: Map<number, MCommand>;
  requests: Map<string, MRequest>;
  /** The scheduler's clock (ms). */
  clock: number;
  steps: number;
  lat: number;
}
interface Real {
  t: TestApp;
  clock: { now: Date };
  tick: () => ReturnType<ReturnType<typeof createRequestScheduler>['tick']>;
}

const isSuper = (a: MAccount) => a.role === 0 && a.company === null;
const engineRight = (a: MAccount) => a.engine ?? defaultEngineControl(a.role);
const accountById = (m: Model, id: string) => Object.values(m.accounts).find((a) => a.id === id);
const liveCarOf = (m: Model, imei: string) => Object.values(m.cars).find((c) => !c.deleted && c.terminal === imei);
const current = (t: MTerminal) => t.segments.length - 1;
const commandsOf = (m: Model) => [...m.commands.values()];
const requestsOf = (m: Model) => [...m.requests.values()];
const active = (c: MCommand) => c.status === 'execWait' || c.status === 'resultWait';

/** engine_right_lost() of migration cancel_reason_codes, on the model (its codes as the contract's texts): why the creator no longer holds the right (null: does). */
function rightLost(m: Model, createdBy: string, carId: string, imei: string | null): string | null {
  const a = accountById(m, createdBy);
  const car = m.cars[carId as CarId];
  if (!a || a.deleted) return cancelReasons.creatorDeleted;
  if (!car || car.deleted) return cancelReasons.carDeleted;
  if (imei !== null && car.terminal !== imei) return cancelReasons.terminalMoved;
  if (!engineRight(a)) return cancelReasons.noRight;
  if (isSuper(a)) return null;
  if (a.company !== car.company) return cancelReasons.noRight;
  return null;
}

function cancelCommand(c: MCommand, reason: string) {
  c.status = 'cancelled';
  c.reason = reason;
}
function cancelRequest(r: MRequest, reason: string) {
  r.status = 'cancelled';
  r.reason = reason;
}

/** A vehicle row changes: terminal periods (cars_terminal_periods) and, with triggers on, cars_cancel_pending. */
function changeCar(m: Model, id: CarId, patch: Partial<Omit<MCar, 'id'>>, triggers: boolean) {
  const car = m.cars[id];
  const old = { ...car };
  Object.assign(car, patch);
  const had = !old.deleted && old.terminal !== null;
  const has = !car.deleted && car.terminal !== null;
  if (!(had && has && old.terminal === car.terminal && old.company === car.company)) {
    if (had) {
      const t = m.terminals[old.terminal!]!;
      t.segments[current(t)]!.open = false;
      t.segments.push({ company: null, open: false });
    }
    if (has) {
      const t = m.terminals[car.terminal!]!;
      const seg = t.segments[current(t)]!;
      expect(seg.open, `model: terminal ${car.terminal} on two live vehicles`).toBe(false);
      seg.company = car.company;
      seg.open = true;
    }
  }
  if (!triggers) return;
  let why: string | null = null;
  if (car.deleted && !old.deleted) why = cancelReasons.carDeleted;
  else if (old.company !== car.company) why = cancelReasons.companyChanged;
  else if (old.terminal !== car.terminal) why = cancelReasons.terminalMoved;
  if (why === null) return;
  for (const c of commandsOf(m)) if (c.carId === id && c.status === 'execWait') cancelCommand(c, why);
  if (old.terminal === car.terminal || car.deleted || old.company !== car.company)
    for (const r of requestsOf(m)) if (r.carId === id && r.status === 'pending') cancelRequest(r, why);
}

/** An account row changes; with triggers on, accounts_cancel_pending. */
function changeAccount(m: Model, key: Who, patch: Partial<Pick<MAccount, 'engine' | 'deleted'>>, triggers: boolean) {
  const a = m.accounts[key];
  const old = { ...a };
  Object.assign(a, patch);
  if (!triggers) return;
  if (a.deleted && !old.deleted) {
    for (const c of commandsOf(m))
      if (c.createdBy === a.id && c.status === 'execWait') cancelCommand(c, cancelReasons.creatorDeleted);
    for (const r of requestsOf(m))
      if (r.createdBy === a.id && r.status === 'pending') cancelRequest(r, cancelReasons.creatorDeleted);
  } else if (engineRight(old) && !engineRight(a)) {
    for (const c of commandsOf(m))
      if (c.createdBy === a.id && c.status === 'execWait' && rightLost(m, c.createdBy, c.carId, c.imei) !== null)
        cancelCommand(c, cancelReasons.noRight);
    for (const r of requestsOf(m))
      if (r.createdBy === a.id && r.status === 'pending' && rightLost(m, r.createdBy, r.carId, null) !== null)
        cancelRequest(r, cancelReasons.noRight);
  }
}

/** Whether a company account may see a terminal at all (visibility.ts): one of its vehicles has it, no other company's live one. */
function terminalVisible(m: Model, a: MAccount, imei: string) {
  if (isSuper(a)) return true;
  const cars = Object.values(m.cars);
  return (
    cars.some((c) => c.company === a.company && c.terminal === imei) &&
    !cars.some((c) => !c.deleted && c.terminal === imei && c.company !== a.company)
  );
}
const carVisible = (m: Model, a: MAccount, carId: string) =>
  isSuper(a) || m.cars[carId as CarId]?.company === a.company;
/** The company a report belongs to: the segment it was sent in, once a vehicle took the terminal (null: nobody's yet). */
const ownerOf = (m: Model, r: MReport) => m.terminals[r.imei]!.segments[r.seg]!.company;
const readable = (m: Model, a: MAccount, r: MReport) => isSuper(a) || ownerOf(m, r) === a.company;

// Talking to the app ------------------------------------------------------------------------------

let batchSeq = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function call<C extends Call>(r: Real, m: Model, as: Who, c: C, body: NoInfer<CallRequest<C>>) {
  return callAs(r.t.app, m.accounts[as].token, c, body);
}
/** The status of a call's outcome (or of a terminal's batch, as one). */
function expectStatus(res: { status: number; raw: LightMyRequestResponse }, status: number, label: string) {
  count(`${label.split(' ')[0]} ${status}`);
  expect(res.status, `${label}: ${res.raw.body.slice(0, 400)}`).toBe(status);
}
/** What the server must answer a caller that may not be signed in any more. */
const signedIn = (m: Model, as: Who) => !m.accounts[as].deleted;

/** One batch from a terminal; the commands it is handed are checked against (b) and the model. */
async function batch(m: Model, r: Real, imei: string, records: object[]) {
  const t = m.terminals[imei]!;
  const res = await sendBatch(r.t.app, { id: deviceOf[imei]! }, { seq: ++batchSeq, records });
  expectStatus({ status: res.statusCode, raw: res }, 200, `batch of ${imei}`);
  t.lastBatchSeg = current(t);
  return res.json<DeviceBatchResponse>();
}

/** The hand-out of a batch: every command (b) allows, exactly those the model expects. */
function checkHandOut(m: Model, imei: string, handed: number[]) {
  const live = liveCarOf(m, imei);
  for (const id of handed) {
    const c = m.commands.get(id);
    expect(c, `terminal ${imei} was handed command ${id} the model does not know`).toBeDefined();
    const creator = accountById(m, c!.createdBy);
    const label = `(b) command ${id} of ${c!.createdBy} handed to ${imei}`;
    expect(creator && !creator.deleted, `${label}: the creator was deleted`).toBe(true);
    expect(engineRight(creator!), `${label}: the creator has no engine right`).toBe(true);
    expect(live, `${label}: the terminal is on no live vehicle`).toBeDefined();
    expect(live!.id, `${label}: the terminal is no longer on the vehicle the command was made for`).toBe(c!.carId);
    if (!isSuper(creator!)) expect(creator!.company, `${label}: the vehicle is another company's`).toBe(live!.company);
  }
  // The model's hand-out: waiting commands whose creator lost the right are cancelled, the others fetched.
  const expected: number[] = [];
  for (const c of commandsOf(m)) {
    if (c.imei !== imei || !active(c)) continue;
    const why = rightLost(m, c.createdBy, c.carId, c.imei);
    if (c.status === 'execWait') {
      if (why !== null) cancelCommand(c, why);
      else c.status = 'resultWait';
    }
    if (why === null) expected.push(c.id);
  }
  expect(
    [...handed].sort((a, b) => a - b),
    `commands handed to ${imei}`,
  ).toEqual(expected.sort((a, b) => a - b));
}

// Reads: what each account may see ----------------------------------------------------------------

/** A latest state; the vehicle list's part (CarListState) has no position: only whether it is shown is checked. */
type State = { lat?: number | null; last_seen_at?: string } | null;

/** The latest state of a terminal as the account may see it (device_latest_state, terminal periods). */
function checkState(m: Model, a: MAccount, imei: string, state: State, label: string) {
  const t = m.terminals[imei]!;
  const gps = m.reports.filter((r) => r.imei === imei && r.kind === 'gps');
  const newest = gps.at(-1);
  if (t.lastBatchSeg === null) return expect(state, `${label}: nothing was ever reported`).toBeNull();
  if (isSuper(a)) {
    expect(state, label).not.toBeNull();
    if (!('lat' in state!)) return;
    return expect(state.lat, `${label}: the newest position`).toBe(newest?.lat ?? null);
  }
  const cur = current(t);
  const seg = t.segments[cur]!;
  const ref = t.lastRecordSeg ?? t.lastBatchSeg;
  const ours = seg.open && seg.company === a.company;
  // Shown only while the terminal is on the company's live vehicle and its newest record is of the company's time;
  // shown for sure when that record is of the current period.
  if (state === null)
    return expect(ours && ref === cur, `${label}: the company's own latest state is missing`).toBe(false);
  expect(ours && t.segments[ref]!.company === a.company, `(a) ${label}: another company's latest state`).toBe(true);
  if (!('lat' in state)) return;
  if (state.lat != null) {
    const report = gps.find((r) => r.lat === state.lat);
    expect(report, `${label}: a position nobody reported`).toBeDefined();
    expect(
      ownerOf(m, report!),
      `(a) ${label}: position ${state.lat} was reported while the terminal was another company's`,
    ).toBe(a.company);
  }
  if (newest && newest.seg === cur) expect(state.lat, `${label}: the newest position`).toBe(newest.lat);
}

const views = ['list', 'detail', 'area', 'slot', 'latest', 'history', 'requests', 'gps', 'engineLog'] as const;
type View = (typeof views)[number];

async function read(m: Model, r: Real, as: Who, view: View, pick: number) {
  const a = m.accounts[as];
  const car = m.cars[carIds[pick % carIds.length]!];
  const imei = terminalIds[pick % terminalIds.length]!;
  const label = `${view} by ${as} (${view === 'list' ? 'all' : ['detail', 'area', 'requests'].includes(view) ? car.id : imei})`;
  const go = <C extends Call>(c: C, body: NoInfer<CallRequest<C>>) => call(r, m, as, c, body);
  if (!signedIn(m, as)) return expectStatus(await go(carList, { isDelete: true }), 401, label);

  switch (view) {
    case 'list': {
      const res = await go(carList, { isDelete: true, limit: 100 });
      expectStatus(res, 200, label);
      const list = res.body.list;
      const expected = Object.values(m.cars).filter((c) => isSuper(a) || c.company === a.company);
      expect(list.map((x) => x.car_id).sort(), `${label}: vehicles`).toEqual(expected.map((c) => c.id).sort());
      for (const row of list) {
        const c = m.cars[row.car_id as CarId];
        expect(row.car_data_id, `${label}: terminal of ${row.car_id}`).toBe(c.terminal);
        if (c.terminal) checkState(m, a, c.terminal, row.latest, `${label} ${row.car_id}`);
        else expect(row.latest).toBeNull();
      }
      return;
    }
    case 'detail':
    case 'area': {
      const res =
        view === 'detail' ? await go(carGetDetail, { car_id: car.id }) : await go(carGetAreaStatus, { car_id: car.id });
      if (!carVisible(m, a, car.id)) return expectStatus(res, 404, label);
      expectStatus(res, 200, label);
      const state: State =
        view === 'detail'
          ? (res as CallOutcome<typeof carGetDetail>).body.latest
          : ((res as CallOutcome<typeof carGetAreaStatus>).body.position ?? null);
      if (!car.terminal) return expect(state, label).toBeNull();
      // The area status shows only the position: null stands for no state as well as for a state without one.
      if (view === 'area' && state === null) {
        const t = m.terminals[car.terminal]!;
        const cur = current(t);
        const newest = m.reports.filter((x) => x.imei === car.terminal && x.kind === 'gps').at(-1);
        const ours =
          t.segments[cur]!.open &&
          t.segments[cur]!.company === a.company &&
          (t.lastRecordSeg ?? t.lastBatchSeg) === cur;
        const mustShow = isSuper(a) ? !!newest : ours && newest?.seg === cur;
        return expect(mustShow, `${label}: the company's own position is missing`).toBe(false);
      }
      return checkState(m, a, car.terminal, state, label);
    }
    case 'latest': {
      const res = await go(carGetLatestState, { car_data_id: imei });
      if (!terminalVisible(m, a, imei)) return expectStatus(res, 404, label);
      expectStatus(res, 200, label);
      return checkState(m, a, imei, res.body.state, label);
    }
    case 'slot':
    case 'history': {
      const res =
        view === 'slot'
          ? await go(carGetReserveCmd, { car_data_id: imei, cmd_idx: 0 })
          : await go(carGetReserveCmdHistory, { car_data_id: imei, limit: 200 });
      if (!terminalVisible(m, a, imei)) return expectStatus(res, 404, label);
      expectStatus(res, 200, label);
      const mine = commandsOf(m)
        .filter((c) => c.imei === imei && (isSuper(a) || c.company === a.company))
        .sort((x, y) => y.id - x.id);
      const list =
        view === 'slot'
          ? [(res as CallOutcome<typeof carGetReserveCmd>).body.command].filter((c) => c !== null)
          : (res as CallOutcome<typeof carGetReserveCmdHistory>).body.list;
      const expected = view === 'slot' ? mine.slice(0, 1) : mine;
      for (const c of list) {
        const mc = m.commands.get(c.command_id);
        expect(
          mc && (isSuper(a) || mc.company === a.company),
          `(a) ${label}: command ${c.command_id} of another company`,
        ).toBe(true);
      }
      expect(
        list.map((c) => `${c.command_id}:${c.status}:${c.cancel_reason ?? ''}`),
        label,
      ).toEqual(expected.map((c) => `${c.id}:${c.status}:${c.reason ?? ''}`));
      return;
    }
    case 'requests': {
      const res = await go(getReserveRequests, { car_id: car.id });
      if (!carVisible(m, a, car.id)) return expectStatus(res, 404, label);
      expectStatus(res, 200, label);
      const body = res.body;
      const seen = [...body.pending, ...body.recent];
      for (const x of seen) {
        const mr = m.requests.get(x.request_id);
        expect(
          mr && (isSuper(a) || mr.company === a.company),
          `(a) ${label}: request ${x.request_id} of another company`,
        ).toBe(true);
      }
      const mine = requestsOf(m).filter((x) => x.carId === car.id && (isSuper(a) || x.company === a.company));
      const show = (x: { id: string; status: string; reason: string | null }) =>
        `${x.id}:${x.status}:${x.reason ?? ''}`;
      expect(
        body.pending.map((x) => show({ id: x.request_id, ...x })),
        `${label}: pending`,
      ).toEqual(
        mine
          .filter((x) => x.status === 'pending')
          .sort((x, y) => x.executeAt - y.executeAt)
          .map(show),
      );
      expect(body.recent.map((x) => show({ id: x.request_id, ...x })).sort(), `${label}: recent`).toEqual(
        mine
          .filter((x) => x.status !== 'pending')
          .map(show)
          .sort(),
      );
      return;
    }
    case 'gps':
    case 'engineLog': {
      const res =
        view === 'gps'
          ? await go(carGetGpsLog, { car_data_id: imei })
          : await go(carGetEngineLog, { car_data_id: imei });
      if (!terminalVisible(m, a, imei)) return expectStatus(res, 404, label);
      expectStatus(res, 200, label);
      if (view === 'gps') {
        const lats = (res as CallOutcome<typeof carGetGpsLog>).body.list.map((p) => p.lat);
        for (const lat of lats) {
          const report = m.reports.find((x) => x.kind === 'gps' && x.lat === lat);
          expect(
            report && readable(m, a, report),
            `(a) ${label}: position ${lat} was reported while the terminal was another company's`,
          ).toBe(true);
        }
        const expected = m.reports
          .filter((x) => x.imei === imei && x.kind === 'gps' && readable(m, a, x))
          .map((x) => x.lat);
        return expect(lats, label).toEqual(expected);
      }
      const rows = (res as CallOutcome<typeof carGetEngineLog>).body.list;
      for (const row of rows) {
        if (row.command_id === null) {
          expect(row.account_id, `(a) ${label}: an engine log row names who ordered no command`).toBeNull();
          continue;
        }
        const c = m.commands.get(row.command_id);
        expect(c, `${label}: an engine log row of no known command`).toBeDefined();
        expect(
          isSuper(a) || c!.company === a.company,
          `(a) ${label}: the engine log names command ${c!.id} of another company`,
        ).toBe(true);
        expect(row.account_id, label).toBe(c!.createdBy);
      }
      const expected = m.reports
        .filter((x) => x.imei === imei && x.kind === 'result' && readable(m, a, x))
        .map((x) => String(x.commandId));
      return expect(rows.map((x) => String(x.command_id)).sort(), label).toEqual(expected.sort());
    }
  }
}

/** After every step: (a) for one account of each company (each role in turn), and the stored states against the model. */
async function checkInvariants(m: Model, r: Real) {
  m.steps++;
  for (const company of [companyA, companyB]) {
    const alive = who.filter((k) => m.accounts[k].company === company && !m.accounts[k].deleted);
    const as = alive[m.steps % Math.max(alive.length, 1)];
    if (!as) continue;
    await read(m, r, as, 'list', 0);
    for (const [i, imei] of terminalIds.entries()) {
      if (commandsOf(m).some((c) => c.imei === imei)) await read(m, r, as, 'history', i);
      if (m.reports.some((x) => x.imei === imei && x.kind === 'gps')) await read(m, r, as, 'gps', i);
      if (m.reports.some((x) => x.imei === imei && x.kind === 'result')) await read(m, r, as, 'engineLog', i);
    }
    for (const [i, carId] of carIds.entries())
      if (requestsOf(m).some((x) => x.carId === carId)) await read(m, r, as, 'requests', i);
  }
  await checkStored(m, r);
}

const storedStatus = (c: {
  state: number;
  deleted_at: unknown;
  closed_reason: string | null;
  result: unknown;
}): CommandStatus => {
  if (c.deleted_at !== null) return (c.closed_reason ?? 'deleted') as CommandStatus;
  if (c.state === 1) return 'execWait';
  if (c.state === 2) return 'resultWait';
  const result = (typeof c.result === 'string' ? JSON.parse(c.result) : c.result) as { success?: boolean } | null;
  return result?.success ? 'succeeded' : 'failed';
};

/** Every command and request stored is the model's, in the model's state. */
async function checkStored(m: Model, r: Real) {
  const db = r.t.db;
  const commands = await db
    .selectFrom('reserved_commands')
    .select([
      'id',
      'car_data_id',
      'car_id',
      'company_id',
      'created_by',
      'state',
      'deleted_at',
      'closed_reason',
      'cancel_reason',
      'result',
    ])
    .orderBy('id')
    .execute();
  expect(
    commands.map(
      (c) =>
        `${c.id} ${c.car_data_id} ${c.car_id} ${c.company_id} ${c.created_by} ${storedStatus(c)} ${cancelReasonText(c.cancel_reason) ?? ''}`,
    ),
    'stored commands',
  ).toEqual(
    commandsOf(m)
      .sort((x, y) => x.id - y.id)
      .map((c) => `${c.id} ${c.imei} ${c.carId} ${c.company} ${c.createdBy} ${c.status} ${c.reason ?? ''}`),
  );
  const requests = await db
    .selectFrom('reservation_requests')
    .select(['request_id', 'car_id', 'company_id', 'created_by', 'status', 'reason', 'cancelled_by', 'command_id'])
    .execute();
  const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  const show = (x: {
    id: string;
    carId: string;
    company: string | null;
    status: string;
    reason: string | null;
    cancelledBy: string | null;
    commandId: unknown;
  }) =>
    `${x.id} ${x.carId} ${x.company} ${x.status} ${x.reason ?? ''} ${x.cancelledBy ?? ''} ${x.commandId === null ? '' : Number(x.commandId)}`;
  expect(
    requests
      .map((x) => ({
        id: x.request_id,
        carId: x.car_id,
        company: x.company_id,
        status: x.status,
        reason: cancelReasonText(x.reason),
        cancelledBy: x.cancelled_by,
        commandId: x.command_id,
      }))
      .sort(byId)
      .map(show),
    'stored requests',
  ).toEqual(requestsOf(m).sort(byId).map(show));
}

// Steps ---------------------------------------------------------------------------------------------

type Path = 'api' | 'db' | 'db-without-triggers';
abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  abstract act(m: Model, r: Real): Promise<void>;
  async run(m: Model, r: Real) {
    count(`step ${this.constructor.name}`);
    await this.act(m, r);
    await checkInvariants(m, r);
  }
  abstract toString(): string;
}

async function withTriggers<T>(r: Real, on: boolean, run: () => Promise<T>): Promise<T> {
  if (on) return run();
  await sql`ALTER TABLE cars DISABLE TRIGGER cars_cancel_pending`.execute(r.t.db);
  await sql`ALTER TABLE accounts DISABLE TRIGGER accounts_cancel_pending`.execute(r.t.db);
  try {
    return await run();
  } finally {
    await sql`ALTER TABLE cars ENABLE TRIGGER cars_cancel_pending`.execute(r.t.db);
    await sql`ALTER TABLE accounts ENABLE TRIGGER accounts_cancel_pending`.execute(r.t.db);
  }
}

/** The super admin's car_update: customer (so company) and terminal of a vehicle. */
async function updateCar(m: Model, r: Real, car: MCar, company: string, imei: string | null, path: Path) {
  if (path === 'api') {
    const info = {
      car_id: car.id,
      car_number: CAR_NUMBER,
      car_type: '',
      car_vin: '',
      user_id: userOf[company]!,
      car_device_id: imei ? deviceOf[imei] : null,
    };
    // A terminal another live vehicle carries cannot be fitted (a deleted vehicle keeps the one it had).
    const holder = imei ? liveCarOf(m, imei) : undefined;
    const status = holder && holder.id !== car.id ? 409 : 200;
    expectStatus(await call(r, m, 'superAdmin', carUpdate, { info }), status, `car_update ${car.id}`);
    if (status !== 200) return;
  } else {
    await withTriggers(r, path === 'db', () =>
      r.t.db
        .updateTable('cars')
        .set({
          user_id: userOf[company]!,
          company_id: company,
          car_device_id: imei ? deviceOf[imei]! : null,
          car_data_id: imei,
        })
        .where('car_id', '=', car.id)
        .execute(),
    );
  }
  changeCar(m, car.id, { company, terminal: imei }, path !== 'db-without-triggers');
}

/** The super admin fits a terminal to another vehicle (of either company), taking it off the live one carrying it. */
class MoveTerminal extends Step {
  constructor(
    readonly imei: string,
    readonly target: CarId,
    readonly path: Path,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.cars[this.target].terminal !== this.imei;
  }
  async act(m: Model, r: Real) {
    const holder = liveCarOf(m, this.imei);
    if (holder && holder.id !== this.target) await updateCar(m, r, holder, holder.company, null, this.path);
    const target = m.cars[this.target];
    await updateCar(m, r, target, target.company, this.imei, this.path);
  }
  toString() {
    return `move ${this.imei} to ${this.target} (${this.path})`;
  }
}

/**
 * The super admin gives a vehicle (and the terminal on it) a customer of the other company: mostly a
 * vehicle with an active command or a pending request of a company account, which then loses the right.
 */
class ChangeCompany extends Step {
  car: CarId = 'car-a';
  constructor(
    readonly pick: number,
    readonly anyCar: boolean,
    readonly path: Path,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    // What a company account is waiting for (the super admin keeps the right whatever the company).
    const byCompany = (createdBy: string) => !isSuper(accountById(m, createdBy)!);
    const busy = carIds.filter(
      (id) =>
        commandsOf(m).some((c) => c.carId === id && active(c) && byCompany(c.createdBy)) ||
        requestsOf(m).some((x) => x.carId === id && x.status === 'pending' && byCompany(x.createdBy)),
    );
    const pool = this.anyCar || busy.length === 0 ? carIds : busy;
    this.car = pool[this.pick % pool.length]!;
    const car = m.cars[this.car];
    await updateCar(m, r, car, otherCompany(car.company), car.terminal, this.path);
  }
  toString() {
    return `${this.car} to the other company (${this.path})`;
  }
}

/** Who may edit vehicles of a company: 401 signed out, 403 a common account, 404 another company. */
function carEditStatus(m: Model, as: Who, car: MCar) {
  const a = m.accounts[as];
  if (a.deleted) return 401;
  if (a.role > 1) return 403;
  if (!isSuper(a) && a.company !== car.company) return 404;
  return 200;
}

class DeleteCar extends Step {
  constructor(
    readonly car: CarId,
    readonly by: Who,
    readonly path: Path,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return !m.cars[this.car].deleted;
  }
  async act(m: Model, r: Real) {
    const car = m.cars[this.car];
    if (this.path !== 'api') {
      await withTriggers(r, this.path === 'db', () =>
        r.t.db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', car.id).execute(),
      );
      return changeCar(m, car.id, { deleted: true }, this.path === 'db');
    }
    const status = carEditStatus(m, this.by, car);
    expectStatus(
      await call(r, m, this.by, carDelete, { car_id: car.id, isDelete: true }),
      status,
      `car_delete ${car.id} by ${this.by}`,
    );
    if (status === 200) changeCar(m, car.id, { deleted: true }, true);
  }
  toString() {
    return `delete ${this.car} (${this.path === 'api' ? `by ${this.by}` : this.path})`;
  }
}

class RestoreCar extends Step {
  constructor(
    readonly car: CarId,
    readonly by: Who,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.cars[this.car].deleted;
  }
  async act(m: Model, r: Real) {
    const car = m.cars[this.car];
    let status = carEditStatus(m, this.by, car);
    if (status === 200 && car.terminal && liveCarOf(m, car.terminal)) status = 409;
    expectStatus(
      await call(r, m, this.by, carDelete, { car_id: car.id, isDelete: false }),
      status,
      `restore ${car.id} by ${this.by}`,
    );
    if (status === 200) changeCar(m, car.id, { deleted: false }, true);
  }
  toString() {
    return `restore ${this.car} by ${this.by}`;
  }
}

/** Those who manage an account (not itself): the super admin, its company's admin, and its manager for roles 1-2. */
function managersOf(m: Model, target: Who): Who[] {
  const t = m.accounts[target];
  return who.filter((k) => {
    const a = m.accounts[k];
    if (k === target) return false;
    if (isSuper(a)) return true;
    return a.company === t.company && (a.role === 0 || (a.role === 1 && t.role >= 1));
  });
}
const accountTargets = who.filter((k) => k !== 'superAdmin');

class DeleteAccount extends Step {
  constructor(
    readonly target: Who,
    readonly pick: number,
    readonly path: Path,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return !m.accounts[this.target].deleted;
  }
  async act(m: Model, r: Real) {
    const target = m.accounts[this.target];
    if (this.path !== 'api') {
      await withTriggers(r, this.path === 'db', () =>
        r.t.db.updateTable('accounts').set({ is_delete: true }).where('account_id', '=', target.id).execute(),
      );
      return changeAccount(m, this.target, { deleted: true }, this.path === 'db');
    }
    const managers = managersOf(m, this.target);
    const by = managers[this.pick % managers.length]!;
    const status = signedIn(m, by) ? 200 : 401;
    expectStatus(
      await call(r, m, by, accountDelete, { account_id: target.id, isDelete: true }),
      status,
      `account_delete ${this.target} by ${by}`,
    );
    if (status === 200) changeAccount(m, this.target, { deleted: true }, true);
  }
  toString() {
    return `delete account ${this.target} (${this.path})`;
  }
}

class RestoreAccount extends Step {
  constructor(
    readonly target: Who,
    readonly pick: number,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.accounts[this.target].deleted;
  }
  async act(m: Model, r: Real) {
    const target = m.accounts[this.target];
    const managers = managersOf(m, this.target);
    const by = managers[this.pick % managers.length]!;
    const status = signedIn(m, by) ? 200 : 401;
    expectStatus(
      await call(r, m, by, accountDelete, { account_id: target.id, isDelete: false }),
      status,
      `restore ${this.target} by ${by}`,
    );
    if (status !== 200) return;
    changeAccount(m, this.target, { deleted: false }, true);
    // Deleting ended its sessions: it signs in again.
    target.token = await createSession(r.t.db, target.id, { idleMinutes: 60, maxHours: 8 });
    target.steppedUp = false;
  }
  toString() {
    return `restore account ${this.target}`;
  }
}

/** An admin switches an account's エンジン制御権限 on the account screen (account_update). */
class SetEngineControl extends Step {
  constructor(
    readonly target: Who,
    readonly pick: number,
    readonly value: boolean,
    readonly path: Path,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    const target = m.accounts[this.target];
    if (this.path !== 'api') {
      await withTriggers(r, this.path === 'db', () =>
        r.t.db
          .updateTable('accounts')
          .set({ engine_control: this.value })
          .where('account_id', '=', target.id)
          .execute(),
      );
      return changeAccount(m, this.target, { engine: this.value }, this.path === 'db');
    }
    const managers = managersOf(m, this.target);
    const by = managers[this.pick % managers.length]!;
    const status = signedIn(m, by) ? 200 : 401;
    const info = { ...accountRows[this.target], engine_control: this.value, password: '', password_confirm: '' };
    expectStatus(await call(r, m, by, accountUpdate, { info }), status, `account_update ${this.target} by ${by}`);
    if (status === 200) changeAccount(m, this.target, { engine: this.value }, true);
  }
  toString() {
    return `${this.target} engine_control ${this.value} (${this.path})`;
  }
}

/** An actor: a given account, or (a number) one of the live accounts of the company concerned or the super admin. */
type By = Who | number;
function resolveBy(m: Model, by: By, company: string | null): Who {
  if (typeof by !== 'number') return by;
  const pool = who.filter(
    (k) => isSuper(m.accounts[k]) || (m.accounts[k].company === company && !m.accounts[k].deleted),
  );
  return pool[by % pool.length]!;
}

/** POST /api/step_up before a prohibit, when asked to and not done yet. */
async function maybeStepUp(m: Model, r: Real, as: Who, cmd: number, stepUp: boolean) {
  const a = m.accounts[as];
  if (cmd !== 1 || !stepUp || a.steppedUp || a.deleted) return;
  expectStatus(await call(r, m, as, stepUpCall, { password: FIXTURE_PASSWORD }), 200, `step_up ${as}`);
  a.steppedUp = true;
}

/** 403 without the right, 403 STEP_UP_REQUIRED for a prohibit without a step-up; 0 when neither. */
function rightStatus(a: MAccount, cmd: number): { status: number; code?: string } | null {
  if (!engineRight(a)) return { status: 403, code: 'FORBIDDEN' };
  if (cmd === 1 && !a.steppedUp) return { status: 403, code: 'STEP_UP_REQUIRED' };
  return null;
}

class Reserve extends Step {
  by: Who = 'superAdmin';
  constructor(
    readonly actor: By,
    readonly imei: string,
    readonly cmd: 0 | 1,
    readonly stepUp: boolean,
    readonly expiresIn: number | null,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    this.by = resolveBy(m, this.actor, liveCarOf(m, this.imei)?.company ?? null);
    await maybeStepUp(m, r, this.by, this.cmd, this.stepUp);
    const a = m.accounts[this.by];
    const body = {
      car_data_id: this.imei,
      cmd_info: { cmd: this.cmd, ...(this.expiresIn ? { expires_in_minutes: this.expiresIn } : {}) },
    };
    const res = await call(r, m, this.by, carEngineStateReserve, body);
    const label = `reserve ${this.cmd} on ${this.imei} by ${this.by}`;
    if (a.deleted) return expectStatus(res, 401, label);
    if (!terminalVisible(m, a, this.imei)) return expectStatus(res, 404, label);
    const cars = Object.values(m.cars).filter(
      (c) => c.terminal === this.imei && (isSuper(a) || c.company === a.company),
    );
    if (cars.length === 0) return expectStatus(res, 409, label);
    if (cars.every((c) => c.deleted)) {
      expectStatus(res, 409, label);
      return expect(res.error.message).toBe(engineMessages.carDeleted);
    }
    const refused = rightStatus(a, this.cmd);
    if (refused) {
      expectStatus(res, refused.status, label);
      return expect(res.error.code, label).toBe(refused.code);
    }
    if (commandsOf(m).some((c) => c.imei === this.imei && active(c))) {
      expectStatus(res, 409, label);
      return expect(res.error.message).toBe(engineMessages.slotBusy);
    }
    expectStatus(res, 200, label);
    const command = res.body.command;
    const car = liveCarOf(m, this.imei)!;
    m.commands.set(command.command_id, {
      id: command.command_id,
      imei: this.imei,
      carId: car.id,
      company: car.company,
      createdBy: a.id,
      status: 'execWait',
      reason: null,
      expiresAt: Date.parse(command.expires_at!),
    });
  }
  toString() {
    return `${this.by} reserves ${this.cmd === 1 ? 'prohibit' : 'permit'} on ${this.imei}${this.stepUp ? ' (stepped up)' : ''}${this.expiresIn ? `, expires in ${this.expiresIn} min` : ''}`;
  }
}

class ScheduleRequest extends Step {
  by: Who = 'superAdmin';
  car: CarId = 'car-a';
  constructor(
    readonly actor: By,
    readonly carPick: number,
    readonly anyCar: boolean,
    readonly cmd: 0 | 1,
    readonly stepUp: boolean,
    readonly minutes: number,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    // Mostly a vehicle that can take a request (live, with a terminal), sometimes any.
    const ready = carIds.filter((id) => !m.cars[id].deleted && m.cars[id].terminal);
    const pool = this.anyCar || ready.length === 0 ? carIds : ready;
    this.car = pool[this.carPick % pool.length]!;
    const car = m.cars[this.car];
    this.by = resolveBy(m, this.actor, car.company);
    await maybeStepUp(m, r, this.by, this.cmd, this.stepUp);
    const a = m.accounts[this.by];
    // Distinct times: due requests fire in execute_at order.
    const executeAt = Date.now() + this.minutes * 60_000 + m.requests.size + 1;
    const body = { request: { car_id: car.id, cmd: this.cmd, execute_at: new Date(executeAt).toISOString() } };
    const res = await call(r, m, this.by, carEngineStateReserveRequest, body);
    const label = `request ${this.cmd} for ${car.id} by ${this.by}`;
    if (a.deleted) return expectStatus(res, 401, label);
    if (!carVisible(m, a, car.id)) return expectStatus(res, 404, label);
    if (car.deleted || !car.terminal) return expectStatus(res, 409, label);
    const refused = rightStatus(a, this.cmd);
    if (refused) {
      expectStatus(res, refused.status, label);
      return expect(res.error.code, label).toBe(refused.code);
    }
    expectStatus(res, 200, label);
    const id = res.body.request_id;
    m.requests.set(id, {
      id,
      carId: car.id,
      company: car.company,
      createdBy: a.id,
      executeAt,
      status: 'pending',
      reason: null,
      cancelledBy: null,
      commandId: null,
    });
  }
  toString() {
    return `${this.by} schedules ${this.cmd === 1 ? 'prohibit' : 'permit'} for ${this.car} in ${this.minutes} min${this.stepUp ? ' (stepped up)' : ''}`;
  }
}

class CancelRequest extends Step {
  by: Who = 'superAdmin';
  constructor(
    readonly actor: By,
    readonly pick: number,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.requests.size > 0;
  }
  async act(m: Model, r: Real) {
    const all = requestsOf(m);
    const req = all.filter((x) => x.status === 'pending')[this.pick % all.length] ?? all[this.pick % all.length]!;
    this.by = resolveBy(m, this.actor, req.company);
    const a = m.accounts[this.by];
    const res = await call(r, m, this.by, carDeleteReserveEngineCmdRequest, { request_id: req.id });
    const label = `cancel request ${req.id} by ${this.by}`;
    if (a.deleted) return expectStatus(res, 401, label);
    if (!isSuper(a) && (m.cars[req.carId as CarId].company !== a.company || req.company !== a.company))
      return expectStatus(res, 404, label);
    if (!engineRight(a)) return expectStatus(res, 403, label);
    if (req.status !== 'pending') return expectStatus(res, 409, label);
    expectStatus(res, 200, label);
    req.status = 'cancelled';
    req.cancelledBy = a.id;
  }
  toString() {
    return `${this.by} cancels request #${this.pick}`;
  }
}

class DeleteCommand extends Step {
  by: Who = 'superAdmin';
  constructor(
    readonly actor: By,
    readonly imei: string,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    this.by = resolveBy(m, this.actor, liveCarOf(m, this.imei)?.company ?? null);
    const a = m.accounts[this.by];
    const res = await call(r, m, this.by, carDeleteReserveEngineCmd, { car_data_id: this.imei, cmd_idx: 0 });
    const label = `delete the command of ${this.imei} by ${this.by}`;
    if (a.deleted) return expectStatus(res, 401, label);
    if (!terminalVisible(m, a, this.imei)) return expectStatus(res, 404, label);
    if (!engineRight(a)) return expectStatus(res, 403, label);
    const waiting = commandsOf(m).find(
      (c) => c.imei === this.imei && c.status === 'execWait' && (isSuper(a) || c.company === a.company),
    );
    if (!waiting) return expectStatus(res, 409, label);
    expectStatus(res, 200, label);
    waiting.status = 'deleted';
  }
  toString() {
    return `${this.by} deletes the waiting command of ${this.imei}`;
  }
}

/** The scheduler runs with its clock moved forward: expiry, then the due requests in execute_at order. */
async function tick(m: Model, r: Real, to: number) {
  m.clock = to;
  r.clock.now = new Date(to);
  const expected = { fired: 0, failed: 0, cancelled: 0, expired: 0, conflicts: 0 };
  for (const c of commandsOf(m)) {
    if (
      (c.status === 'execWait' && c.expiresAt <= to) ||
      (c.status === 'resultWait' && c.expiresAt <= to - 10 * 60_000)
    ) {
      c.status = 'expired';
      expected.expired++;
    }
  }
  const due = requestsOf(m)
    .filter((x) => x.status === 'pending' && x.executeAt <= to)
    .sort((x, y) => x.executeAt - y.executeAt);
  const fired: MRequest[] = [];
  for (const req of due) {
    const car = m.cars[req.carId as CarId];
    const fail = (reason: string) => {
      req.status = 'failed';
      req.reason = reason;
      expected.failed++;
    };
    if (car.deleted) fail(engineMessages.firedCarDeleted);
    else if (!car.terminal) fail(engineMessages.firedNoDevice);
    else {
      const why = rightLost(m, req.createdBy, car.id, null);
      if (why !== null) {
        cancelRequest(req, why);
        expected.cancelled++;
      } else if (commandsOf(m).some((c) => c.imei === car.terminal && active(c))) fail(engineMessages.firedSlotBusy);
      else {
        req.status = 'fired';
        expected.fired++;
        fired.push(req);
        // Its id comes from the database below; until then a placeholder keeps the slot busy.
        m.commands.set(-fired.length, {
          id: -fired.length,
          imei: car.terminal,
          carId: car.id,
          company: car.company,
          createdBy: req.createdBy,
          status: 'execWait',
          reason: null,
          expiresAt: to + 24 * 60 * 60_000,
        });
      }
    }
  }
  for (const [k, v] of Object.entries(expected)) for (let i = 0; i < v; i++) count(`tick ${k}`);
  expect(await r.tick(), `tick at +${Math.round((to - Date.now()) / 60_000)} min`).toEqual(expected);
  for (const [i, req] of fired.entries()) {
    const row = await r.t.db
      .selectFrom('reservation_requests')
      .select('command_id')
      .where('request_id', '=', req.id)
      .executeTakeFirstOrThrow();
    const placeholder = m.commands.get(-(i + 1))!;
    m.commands.delete(-(i + 1));
    req.commandId = Number(row.command_id);
    m.commands.set(req.commandId, { ...placeholder, id: req.commandId });
  }
}

class Tick extends Step {
  constructor(readonly minutes: number) {
    super();
  }
  async act(m: Model, r: Real) {
    await tick(m, r, m.clock + this.minutes * 60_000);
  }
  toString() {
    return `scheduler after ${this.minutes} min`;
  }
}

class Poll extends Step {
  constructor(readonly imei: string) {
    super();
  }
  async act(m: Model, r: Real) {
    const reply = await batch(m, r, this.imei, []);
    checkHandOut(
      m,
      this.imei,
      reply.commands.map((c) => c.id),
    );
  }
  toString() {
    return `${this.imei} polls`;
  }
}

/** Just after now: a record is sent after the change that came before it, in the database's clock too. */
async function recordTime() {
  await sleep(2);
  return new Date().toISOString();
}

/** A terminal reports a command's result: mostly one it was handed, sometimes any (to see refusals). */
class Result extends Step {
  imei = '';
  commandId = 0;
  constructor(
    readonly pick: number,
    readonly anyCommand: boolean,
    readonly success: boolean,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.commands.size > 0;
  }
  async act(m: Model, r: Real) {
    const waiting = commandsOf(m).filter((c) => c.status === 'resultWait');
    const pool = this.anyCommand || waiting.length === 0 ? commandsOf(m) : waiting;
    const c = pool[this.pick % pool.length]!;
    this.imei = c.imei;
    this.commandId = c.id;
    const time = await recordTime();
    const reply = await batch(m, r, c.imei, [
      { type: 'command_result', time, command_id: c.id, success: this.success, detail: '' },
    ]);
    const accepted = c.status === 'resultWait';
    expect(reply.accepted, `result of command ${c.id} (${c.status})`).toBe(accepted ? 1 : 0);
    if (accepted) {
      c.status = this.success ? 'succeeded' : 'failed';
      if (this.success) {
        const t = m.terminals[c.imei]!;
        t.lastRecordSeg = current(t);
        // The engine log row names the command only on a vehicle of the command's company.
        const named = liveCarOf(m, c.imei)?.company === c.company;
        m.reports.push({ imei: c.imei, kind: 'result', lat: null, commandId: named ? c.id : null, seg: current(t) });
      }
    }
    checkHandOut(
      m,
      c.imei,
      reply.commands.map((x) => x.id),
    );
  }
  toString() {
    return `${this.imei} reports ${this.success ? 'success' : 'failure'} of command ${this.commandId}`;
  }
}

/** The terminal reports a position or its battery (a record that moves the latest state's time, not its position). */
class Report extends Step {
  constructor(
    readonly imei: string,
    readonly kind: 'gps' | 'battery',
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    const time = await recordTime();
    const t = m.terminals[this.imei]!;
    const lat = Math.round((35 + ++m.lat * 0.001) * 1000) / 1000;
    const record =
      this.kind === 'gps'
        ? { type: 'gps', time, lat, lng: 139.7, speed: 30 }
        : { type: 'battery', time, voltage: 12.4, percentage: 80 };
    const reply = await batch(m, r, this.imei, [record]);
    expect(reply.accepted, `${this.kind} report of ${this.imei}: ${JSON.stringify(reply.rejected)}`).toBe(1);
    t.lastRecordSeg = current(t);
    m.reports.push({
      imei: this.imei,
      kind: this.kind,
      lat: this.kind === 'gps' ? lat : null,
      commandId: null,
      seg: current(t),
    });
    checkHandOut(
      m,
      this.imei,
      reply.commands.map((x) => x.id),
    );
  }
  toString() {
    return `${this.imei} reports ${this.kind}`;
  }
}

class Read extends Step {
  constructor(
    readonly by: Who,
    readonly view: View,
    readonly pick: number,
  ) {
    super();
  }
  async act(m: Model, r: Real) {
    await read(m, r, this.by, this.view, this.pick);
  }
  toString() {
    return `${this.by} reads ${this.view} #${this.pick}`;
  }
}

// The property ------------------------------------------------------------------------------------

const whoArb = fc.constantFrom(...who);
/** Mostly someone of the company concerned, sometimes anyone (to see the refusals). */
const byArb: fc.Arbitrary<By> = fc.oneof({ weight: 1, arbitrary: whoArb }, { weight: 3, arbitrary: fc.nat() });
const imeiArb = fc.constantFrom(...terminalIds);
const carArb = fc.constantFrom(...carIds);
/** Through the API, or the database as the other tests do; without the cancelling triggers, only the checks at hand-out and firing stand in the way. */
const pathArb = fc.constantFrom<Path>('api', 'api', 'db', 'db-without-triggers', 'db-without-triggers');
/** A company change is where the checks at hand-out and firing matter most: mostly without the triggers. */
const companyPathArb = fc.constantFrom<Path>('api', 'db', 'db-without-triggers', 'db-without-triggers');
const cmdArb = fc.constantFrom<0 | 1>(0, 1);
const stepUpArb = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
const targetArb = fc.constantFrom(...accountTargets);

/** Each kind of step with its weight: mostly the engine's life, now and then an administrative change. */
const steps = (
  [
    [2, fc.tuple(imeiArb, carArb, pathArb).map(([imei, car, path]) => new MoveTerminal(imei, car, path))],
    [
      3,
      fc
        .tuple(fc.nat(), fc.nat(3), companyPathArb)
        .map(([pick, any, path]) => new ChangeCompany(pick, any === 0, path)),
    ],
    [1, fc.tuple(carArb, whoArb, pathArb).map(([car, by, path]) => new DeleteCar(car, by, path))],
    [1, fc.tuple(carArb, whoArb).map(([car, by]) => new RestoreCar(car, by))],
    [1, fc.tuple(targetArb, fc.nat(), pathArb).map(([target, pick, path]) => new DeleteAccount(target, pick, path))],
    [1, fc.tuple(targetArb, fc.nat()).map(([target, pick]) => new RestoreAccount(target, pick))],
    [
      1,
      fc
        .tuple(targetArb, fc.nat(), fc.boolean(), pathArb)
        .map(([target, pick, value, path]) => new SetEngineControl(target, pick, value, path)),
    ],
    [
      4,
      fc
        .tuple(byArb, imeiArb, cmdArb, stepUpArb, fc.option(fc.integer({ min: 1, max: 120 }), { freq: 3 }))
        .map(([by, imei, cmd, stepUp, expires]) => new Reserve(by, imei, cmd, stepUp, expires)),
    ],
    [
      3,
      fc
        .tuple(
          byArb,
          fc.nat(),
          fc.nat(3).map((n) => n === 0),
          cmdArb,
          stepUpArb,
          fc.integer({ min: 1, max: 120 }),
        )
        .map(([by, car, anyCar, cmd, stepUp, minutes]) => new ScheduleRequest(by, car, anyCar, cmd, stepUp, minutes)),
    ],
    [1, fc.tuple(byArb, fc.nat()).map(([by, pick]) => new CancelRequest(by, pick))],
    [1, fc.tuple(byArb, imeiArb).map(([by, imei]) => new DeleteCommand(by, imei))],
    [3, fc.integer({ min: 1, max: 180 }).map((minutes) => new Tick(minutes))],
    [3, imeiArb.map((imei) => new Poll(imei))],
    [
      2,
      fc
        .tuple(fc.nat(), fc.boolean(), fc.boolean())
        .map(([pick, any, success]) => new Result(pick, any && pick % 3 === 0, success)),
    ],
    [
      2,
      fc
        .tuple(imeiArb, fc.constantFrom<'gps' | 'battery'>('gps', 'gps', 'battery'))
        .map(([imei, kind]) => new Report(imei, kind)),
    ],
    [2, fc.tuple(whoArb, fc.constantFrom(...views), fc.nat()).map(([by, view, pick]) => new Read(by, view, pick))],
  ] as const
).flatMap(([weight, arb]) => Array.from({ length: weight }, () => arb as fc.Arbitrary<Step>));

let t: TestApp;
let tables: string[];

beforeAll(async () => {
  t = await createTestApp();
  tables = (
    await sql<{
      tablename: string;
    }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely%'`.execute(t.db)
  ).rows.map((x) => x.tablename);
}, 120_000);
afterAll(() => t?.close());

/** Empties every table and seeds the world of one run: two companies, seven accounts, four vehicles, two terminals. */
async function freshWorld(): Promise<{ model: Model; real: Real }> {
  await sql.raw(`TRUNCATE ${tables.map((x) => `"${x}"`).join(', ')} RESTART IDENTITY CASCADE`).execute(t.db);
  await seedFixtures(t.db);
  await t.db
    .insertInto('accounts')
    .values(Object.values(extraAccounts).map((a) => ({ ...a, password_hash: PASSWORD_HASH })))
    .execute();
  await t.db.updateTable('accounts').set({ password_hash: PASSWORD_HASH }).execute();
  await t.db
    .insertInto('cars')
    .values([
      { car_id: 'car-a2', company_id: companyA, user_id: fleet.A.user_id, car_device_id: null, car_data_id: null },
      { car_id: 'car-b2', company_id: companyB, user_id: fleet.B.user_id, car_device_id: null, car_data_id: null },
    ])
    .execute();
  const life = { idleMinutes: 60, maxHours: 8 };
  const accountsModel = {} as Record<Who, MAccount>;
  for (const key of who) {
    const row = accountRows[key];
    accountsModel[key] = {
      key,
      id: row.account_id,
      role: row.role,
      company: row.company_id,
      engine: null,
      deleted: false,
      token: await createSession(t.db, row.account_id, life),
      steppedUp: false,
    };
  }
  const car = (id: CarId, company: string, terminal: string | null): MCar => ({
    id,
    company,
    terminal,
    deleted: false,
  });
  const model: Model = {
    accounts: accountsModel,
    cars: {
      'car-a': car('car-a', companyA, T1),
      'car-b': car('car-b', companyB, T2),
      'car-a2': car('car-a2', companyA, null),
      'car-b2': car('car-b2', companyB, null),
    },
    terminals: {
      [T1]: { segments: [{ company: companyA, open: true }], lastRecordSeg: null, lastBatchSeg: null },
      [T2]: { segments: [{ company: companyB, open: true }], lastRecordSeg: null, lastBatchSeg: null },
    },
    reports: [],
    commands: new Map(),
    requests: new Map(),
    clock: Date.now(),
    steps: 0,
    lat: 0,
  };
  const clock = { now: new Date(model.clock) };
  const scheduler = createRequestScheduler({ db: t.db, clock: () => clock.now });
  return { model, real: { t, clock, tick: () => scheduler.tick() } };
}

/** (c) Nothing is lost: once every request fell due and the terminals polled, each ended with a reason. */
async function checkNothingLost(m: Model, r: Real) {
  const last = Math.max(m.clock, ...requestsOf(m).map((x) => x.executeAt)) + 60_000;
  await tick(m, r, last);
  for (const imei of terminalIds) {
    const reply = await batch(m, r, imei, []);
    checkHandOut(
      m,
      imei,
      reply.commands.map((c) => c.id),
    );
  }
  await checkStored(m, r);
  const db = r.t.db;
  const commands = await db.selectFrom('reserved_commands').selectAll().execute();
  const events = await db.selectFrom('reserved_command_events').selectAll().orderBy('id').execute();
  const audits = await db.selectFrom('audit_log').select(['action', 'target_id']).execute();
  const audited = (action: string, id: string) => audits.some((x) => x.action === action && x.target_id === id);
  for (const c of commands) {
    const status = storedStatus(c);
    count(`end command ${status} ${c.cancel_reason ?? ''}`);
    const timeline = events.filter((e) => Number(e.command_id) === Number(c.id));
    const label = `(c) command ${c.id} (${status})`;
    expect(['resultWait', 'succeeded', 'failed', 'deleted', 'expired', 'cancelled'], label).toContain(status);
    expect(timeline[0], label).toMatchObject({ event: 'reserved' });
    if (status === 'cancelled') {
      expect(c.cancel_reason, label).toBeTruthy();
      expect(timeline.at(-1), label).toMatchObject({ event: 'cancelled', reason: c.cancel_reason });
      expect(audited('engine_command.cancel', String(c.id)), `${label}: audited`).toBe(true);
    }
    if (status === 'deleted')
      expect(timeline.at(-1), label).toMatchObject({ event: 'deleted', account_id: expect.any(String) });
    if (status === 'expired') expect(timeline.at(-1), label).toMatchObject({ event: 'expired' });
    if (status === 'resultWait')
      expect(
        timeline.some((e) => e.event === 'fetched'),
        label,
      ).toBe(true);
  }
  const requests = await db.selectFrom('reservation_requests').selectAll().execute();
  for (const x of requests) {
    const label = `(c) request ${x.request_id} (${x.status})`;
    count(`end request ${x.status} ${x.reason ?? ''}`);
    if (x.status === 'pending') expect(new Date(x.execute_at).getTime(), label).toBeGreaterThan(m.clock);
    else if (x.status === 'fired')
      expect(
        commands.some((c) => Number(c.id) === Number(x.command_id)),
        label,
      ).toBe(true);
    else if (x.status === 'failed') expect(x.reason, label).toBeTruthy();
    else {
      expect(x.status, label).toBe('cancelled');
      expect(x.reason || x.cancelled_by, label).toBeTruthy();
      if (!x.cancelled_by) expect(audited('reservation_request.cancel', x.request_id), `${label}: audited`).toBe(true);
    }
  }
}

describe('engine authority, model-based (issue 12)', () => {
  it(
    `${RUNS} random runs of up to ${MAX_COMMANDS} steps keep tenancy (a), authority at hand-out (b) and lose nothing (c)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(steps, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
          const world = await freshWorld();
          await fc.asyncModelRun(() => world, cmds);
          await checkNothingLost(world.model, world.real);
        }),
        { numRuns: RUNS, ...seed },
      );
      if (stats)
        console.log(
          [...stats]
            .sort()
            .map(([k, v]) => `${String(v).padStart(5)} ${k}`)
            .join('\n'),
        );
    },
    Math.max(300_000, RUNS * 20_000),
  );
});
