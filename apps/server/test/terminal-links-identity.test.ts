import { companyTerminalPolicy, companyTerminalPolicyUpdate, type NotifyItemKey } from '@fleet/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GT06, encodeGt06Ack } from '../src/gateway/tcp/gt06-codec.js';
import { encodeGt06Login, readGt06Command } from '../src/gateway/tcp/gt06-device.js';
import { gt06Protocol } from '../src/gateway/tcp/gt06-link.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { commandTextOf, encodeAvlFrame, encodeLogin, encodeResponse } from '../src/gateway/tcp/teltonika-device.js';
import { teltonikaProtocol } from '../src/gateway/tcp/teltonika-link.js';
import { clearCommands, createSteppedUpApp, getSlot, reserveEngineOk } from './engine-support.js';
import { accounts, fleet, type SignedInApp } from './helper.js';
import { DeviceSocket, fixes, linkGateway, listen, setProtocol, until } from './link-support.js';
import { subscribe } from './notify-support.js';

/**
 * Terminal identity over the real Teltonika and GT06 codecs (docs/security.md "Terminal identity"):
 * whoever knows an IMEI can log in with it, so a second login while the terminal's link is alive must
 * not silently take the terminal (and its engine prohibit) away, must be told with both addresses, and
 * an answer that came on another link than the command went out on must be visible.
 * The real terminal connects from 127.0.0.1, the impostor from 127.0.0.2 (both this machine).
 */
const HOUR = 3_600_000;
const REAL = '127.0.0.1';
const IMPOSTOR = '127.0.0.2';
const imei = fleet.A.car_data_id;
const gtImei = fleet.B.car_data_id;

let t: SignedInApp;
let token = '';
/** One gateway per policy (and a second instance of the refusing one), each with its listeners. */
type Side = { gateway: LinkGateway; teltonika: LinkListener; gt06: LinkListener };
let refuse: Side;
let replace: Side;
let otherInstance: Side;
let replaceElsewhere: Side;

async function side(mode: 'refuse' | 'replace'): Promise<Side> {
  const { gateway } = linkGateway(t.db, HOUR, mode);
  return { gateway, teltonika: await listen(gateway, teltonikaProtocol), gt06: await listen(gateway, gt06Protocol) };
}

beforeAll(async () => {
  t = await createSteppedUpApp(['staffA', 'adminA', 'adminB']);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  token = t.tokens.staffA;
  refuse = await side('refuse');
  replace = await side('replace');
  otherInstance = await side('refuse');
  replaceElsewhere = await side('replace');
});
afterAll(async () => {
  for (const s of [refuse, replace, otherInstance, replaceElsewhere]) {
    await s?.gateway.stop();
    await s?.teltonika.close();
    await s?.gt06.close();
  }
  await t?.close();
});
const sockets: DeviceSocket[] = [];
afterEach(async () => {
  for (const d of sockets.splice(0)) d.close();
  for (const s of [refuse, replace, otherInstance, replaceElsewhere]) await until(() => s.gateway.connected === 0);
});
beforeEach(async () => {
  await clearCommands(t.db);
  await t.db.deleteFrom('notification_events').execute();
  await t.db.deleteFrom('notification_settings').execute();
  await t.db.deleteFrom('terminal_addresses').execute();
  await t.db.updateTable('companies').set({ alert_new_terminal_address: false }).execute();
  await subscribe(t.db, accounts.staffA.account_id, { terminal_duplicate: null, terminal_new_address: null });
  await subscribe(t.db, accounts.adminB.account_id, { terminal_duplicate: null, terminal_new_address: null });
});

const fix = fixes({ io: { 239: 0 } });

/** A Teltonika login from `from`: the byte the server answered, and the socket. */
async function teltonikaLogin(port: number, from: string): Promise<{ d: DeviceSocket; accepted: boolean }> {
  const d = await DeviceSocket.open(port, from);
  sockets.push(d);
  d.send(encodeLogin(imei));
  const answer = await d.take(1);
  return { d, accepted: answer[0] === 1 };
}

/** Logged in and a standing fix stored (so a prohibit is not held back). */
async function realTerminal(s: Side, from = REAL): Promise<DeviceSocket> {
  const { d, accepted } = await teltonikaLogin(s.teltonika.port, from);
  expect(accepted).toBe(true);
  d.send(encodeAvlFrame([fix()]));
  expect((await d.take(4)).readUInt32BE(0)).toBe(1);
  return d;
}

async function nextCommand(d: DeviceSocket): Promise<string | null> {
  const head = await d.take(8);
  const rest = await d.take(head.readUInt32BE(4) + 4);
  return commandTextOf(Buffer.concat([head, rest]));
}

const alerts = async (item: NotifyItemKey) =>
  (
    await t.db
      .selectFrom('notification_events')
      .select(['account_id', 'car_id', 'item', 'detail'])
      .where('item', '=', item)
      .orderBy('id')
      .execute()
  ).map((r) => ({ ...r, detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as object }));

describe('TERMINAL_TAKEOVER=refuse (the default)', () => {
  it('refuses a second login of a connected IMEI: the real terminal keeps its link and receives the prohibit', async () => {
    const real = await realTerminal(refuse);
    const impostor = await teltonikaLogin(refuse.teltonika.port, IMPOSTOR);
    expect(impostor.accepted).toBe(false);
    expect(await impostor.d.waitClosed()).toBe(true);
    expect(real.closed).toBe(false);

    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    expect(await nextCommand(real)).toBe('setdigout 1');
    real.send(encodeResponse('DOUT1:1 DOUT2:0'));
    await until(async () => (await getSlot(t.app, token, imei)).command?.status === 'succeeded');
    const slot = await getSlot(t.app, token, imei);
    expect(slot.command).toMatchObject({
      command_id: cmd.command_id,
      sent_link: { address: REAL },
      answer_link: { address: REAL },
      link_changed: false,
    });
    expect(slot.command?.sent_link?.connected_at).toBe(slot.command?.answer_link?.connected_at);
  });

  it('raises 端末の二重接続 with both addresses to those who see the vehicle', async () => {
    await realTerminal(refuse);
    expect((await teltonikaLogin(refuse.teltonika.port, IMPOSTOR)).accepted).toBe(false);
    const raised = await alerts('terminal_duplicate');
    // Company B's admin subscribed too, and sees nothing of company A's vehicle.
    expect(raised).toEqual([
      {
        account_id: accounts.staffA.account_id,
        car_id: fleet.A.car_id,
        item: 'terminal_duplicate',
        detail: expect.objectContaining({
          live_address: REAL,
          new_address: IMPOSTOR,
          outcome: 'refused',
          what: expect.stringContaining(`${REAL}`) as string,
        }) as object,
      },
    ]);
    expect(JSON.stringify(raised[0]!.detail)).toContain(IMPOSTOR);
  });

  it('refuses it when the live link is held by another server instance', async () => {
    const real = await realTerminal(refuse);
    const impostor = await teltonikaLogin(otherInstance.teltonika.port, IMPOSTOR);
    expect(impostor.accepted).toBe(false);
    expect(otherInstance.gateway.connected).toBe(0);
    expect(refuse.gateway.connected).toBe(1);
    await reserveEngineOk(t.app, token, imei, 1);
    expect(await nextCommand(real)).toBe('setdigout 1');
    expect((await alerts('terminal_duplicate')).map((a) => a.detail)).toEqual([
      expect.objectContaining({ live_address: REAL, new_address: IMPOSTOR, outcome: 'refused' }),
    ]);
  });

  it('takes a login from the live link’s own address as the terminal reconnecting: the link moves, no alert', async () => {
    const stale = await realTerminal(refuse);
    const again = await teltonikaLogin(refuse.teltonika.port, REAL);
    expect(again.accepted).toBe(true);
    expect(await stale.waitClosed()).toBe(true);
    await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(again.d)).toBe('setdigout 0');
    expect(await alerts('terminal_duplicate')).toEqual([]);
  });

  it('lets the terminal back in once its link closed, from any address', async () => {
    const first = await realTerminal(refuse);
    first.close();
    await until(() => refuse.gateway.connected === 0);
    const again = await teltonikaLogin(otherInstance.teltonika.port, IMPOSTOR);
    expect(again.accepted).toBe(true);
    expect(await alerts('terminal_duplicate')).toEqual([]);
  });

  it('refuses a second GT06 login too (no answer, closed) and keeps the commands on the first', async () => {
    const real = await DeviceSocket.open(refuse.gt06.port, REAL);
    sockets.push(real);
    real.send(encodeGt06Login(gtImei, 1));
    expect(await real.take(10)).toEqual(encodeGt06Ack(GT06.login, 1));
    const impostor = await DeviceSocket.open(refuse.gt06.port, IMPOSTOR);
    sockets.push(impostor);
    impostor.send(encodeGt06Login(gtImei, 1));
    expect(await impostor.waitClosed()).toBe(true);
    expect(impostor.received.length).toBe(0);
    const cmd = await reserveEngineOk(t.app, t.tokens.adminB, gtImei, 0);
    const head = await real.take(3);
    const frame = Buffer.concat([head, await real.take(head[2]! + 2)]);
    expect(readGt06Command(frame)).toMatchObject({ text: 'Relay,0#', serverFlag: cmd.command_id });
    expect((await alerts('terminal_duplicate')).map((a) => [a.account_id, a.detail])).toEqual([
      [accounts.adminB.account_id, expect.objectContaining({ live_address: REAL, new_address: IMPOSTOR })],
    ]);
  });
});

describe('TERMINAL_TAKEOVER=replace', () => {
  it('gives the terminal to the newest login, closes the old link and raises the alert with both addresses', async () => {
    const old = await realTerminal(replace);
    const newer = await teltonikaLogin(replace.teltonika.port, IMPOSTOR);
    expect(newer.accepted).toBe(true);
    expect(await old.waitClosed()).toBe(true);
    await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(newer.d)).toBe('setdigout 0');
    expect((await alerts('terminal_duplicate')).map((a) => a.detail)).toEqual([
      expect.objectContaining({ live_address: REAL, new_address: IMPOSTOR, outcome: 'replaced' }),
    ]);
  });

  it('takes the link from another instance, which closes its old connection and hands it nothing', async () => {
    const old = await realTerminal(replace);
    const newer = await teltonikaLogin(replaceElsewhere.teltonika.port, IMPOSTOR);
    expect(newer.accepted).toBe(true);
    await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(newer.d)).toBe('setdigout 0');
    expect(await old.waitClosed()).toBe(true);
    expect(old.received.length).toBe(0);
    expect(replace.gateway.connected).toBe(0);
  });

  it('records a prohibit sent on one link and answered on another, and flags it', async () => {
    const real = await realTerminal(replace);
    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    expect(await nextCommand(real)).toBe('setdigout 1');
    // The vehicle never answers: the impostor takes the link, is handed the prohibit again and says it worked.
    const impostor = await teltonikaLogin(replace.teltonika.port, IMPOSTOR);
    expect(impostor.accepted).toBe(true);
    expect(await nextCommand(impostor.d)).toBe('setdigout 1');
    impostor.d.send(encodeResponse('DOUT1:1 DOUT2:0'));
    await until(async () => (await getSlot(t.app, token, imei)).command?.status === 'succeeded');
    const slot = await getSlot(t.app, token, imei);
    expect(slot.command).toMatchObject({
      command_id: cmd.command_id,
      sent_link: { address: REAL },
      answer_link: { address: IMPOSTOR },
      link_changed: true,
    });
  });
});

describe('a login from an address the terminal has not used before', () => {
  async function loginFrom(from: string) {
    const d = await realTerminal(refuse, from);
    d.close();
    await until(() => refuse.gateway.connected === 0);
  }

  it('raises nothing while the company has not asked for it', async () => {
    await loginFrom('127.0.0.1');
    await loginFrom('127.0.0.3');
    expect(await alerts('terminal_new_address')).toEqual([]);
  });

  it('raises 端末の新しい接続元 once the company admin asks for it; a known address and the first one do not', async () => {
    const off = await t.call(companyTerminalPolicy, { company_id: fleet.A.company_id }, 'adminA');
    expect(off.body).toEqual({ company_id: fleet.A.company_id, alert_new_terminal_address: false });
    const on = await t.call(
      companyTerminalPolicyUpdate,
      { company_id: fleet.A.company_id, alert_new_terminal_address: true },
      'adminA',
    );
    expect(on.status, on.raw.body).toBe(200);
    await loginFrom('127.0.0.1');
    expect(await alerts('terminal_new_address')).toEqual([]);
    await loginFrom('127.0.0.1');
    expect(await alerts('terminal_new_address')).toEqual([]);
    await loginFrom('127.0.0.4');
    expect(await alerts('terminal_new_address')).toEqual([
      {
        account_id: accounts.staffA.account_id,
        car_id: fleet.A.car_id,
        item: 'terminal_new_address',
        detail: expect.objectContaining({ address: '127.0.0.4' }) as object,
      },
    ]);
  });

  it('is set by the company admin of that company only (another company: not found; staff: forbidden)', async () => {
    const other = await t.call(
      companyTerminalPolicyUpdate,
      { company_id: fleet.A.company_id, alert_new_terminal_address: true },
      'adminB',
    );
    expect(other.status).toBe(404);
    const staff = await t.call(companyTerminalPolicy, { company_id: fleet.A.company_id }, 'staffA');
    expect(staff.status).toBe(403);
    const bad = await t.call(
      companyTerminalPolicyUpdate,
      // @ts-expect-error: not a boolean, as a broken client might send
      { company_id: fleet.A.company_id, alert_new_terminal_address: 'yes' },
      'adminA',
    );
    expect(bad.status).toBe(400);
    const row = await t.db
      .selectFrom('companies')
      .select('alert_new_terminal_address')
      .where('company_id', '=', fleet.A.company_id)
      .executeTakeFirstOrThrow();
    expect(row.alert_new_terminal_address).toBe(false);
  });
});
