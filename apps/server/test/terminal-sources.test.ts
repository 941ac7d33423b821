import { OSMAND_PATH, deviceAdd, deviceGetDetail, deviceUpdate, fieldMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsmandListener, type OsmandListener } from '../src/gateway/osmand-listener.js';
import { callAs, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { TERMINAL_PASSWORD, at, basic, count, terminalA, terminalB } from './telemetry-support.js';

/**
 * A terminal's allowed sources (`ipaddr`, docs/device-protocol.md §13): an address, a CIDR block or a
 * comma-separated list of both, set through device_add / device_update and enforced on the HTTP ways in
 * too (the JSON gateway, OsmAnd on the main port and on OSMAND_PORT), with the source address the app's
 * TRUST_PROXY rule gives (one proxy hop here: X-Forwarded-For's last entry is the terminal).
 */
let t: TestApp;
let token: string;
let listener: OsmandListener;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  await seedFixtures(t.db);
  token = await login(t.app, 'superAdmin');
  // Terminal B speaks OsmAnd; A stays on our JSON protocol.
  await t.db.updateTable('devices').set({ protocol: 'osmand' }).where('car_data_id', '=', terminalB.imei).execute();
  listener = await startOsmandListener(t.app, { port: 0, host: '127.0.0.1', timeoutMs: 5_000 });
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

const CARRIER = '203.0.113.0/24, 198.51.100.7, 2001:db8::/32';

/** Sets a terminal's ipaddr through device_update, as the console's form does. */
async function setSources(carDeviceId: string, ipaddr: string) {
  const detail = await callAs(t.app, token, deviceGetDetail, { car_device_id: carDeviceId });
  expect(detail.status).toBe(200);
  const { car_device_id, macaddr, car_type, car_data_id, protocol, cmd_cut_text, cmd_restore_text } = detail.body;
  return callAs(t.app, token, deviceUpdate, {
    info: {
      car_device_id,
      ipaddr,
      macaddr,
      car_type,
      car_data_id,
      protocol,
      cmd_cut_text,
      cmd_restore_text,
      password: '',
    },
  });
}

describe('device_add / device_update', () => {
  it('store a carrier range and a list of addresses and blocks, IPv4 and IPv6, and show them back', async () => {
    const added = await callAs(t.app, token, deviceAdd, {
      info: {
        car_device_id: 'sources-1',
        password: 'terminal-pass-1',
        car_data_id: '358409100000777',
        ipaddr: '203.0.113.0/24',
        macaddr: '',
        car_type: '',
      },
    });
    expect(added.status, added.raw.body).toBe(200);
    expect((await callAs(t.app, token, deviceGetDetail, { car_device_id: 'sources-1' })).body.ipaddr).toBe(
      '203.0.113.0/24',
    );
    expect((await setSources('sources-1', CARRIER)).status).toBe(200);
    expect((await callAs(t.app, token, deviceGetDetail, { car_device_id: 'sources-1' })).body.ipaddr).toBe(CARRIER);
  });

  it('refuse a list with an entry that is neither an address nor a block, with the field message, writing nothing', async () => {
    const refused = await setSources('sources-1', '203.0.113.0/24, 0x7f000001');
    expect(refused.status).toBe(400);
    expect(refused.raw.json().errors).toEqual({ 'info.ipaddr': fieldMessages.ipaddr });
    expect((await callAs(t.app, token, deviceGetDetail, { car_device_id: 'sources-1' })).body.ipaddr).toBe(CARRIER);
  });
});

const batch = (from: string | undefined, minute: number) =>
  t.app.inject({
    method: 'POST',
    url: '/device/v1/batch',
    payload: { seq: minute, records: [{ type: 'gps', time: at(minute), lat: 35.68, lng: 139.76, speed: 10 }] },
    headers: { authorization: basic(terminalA.id), ...(from ? { 'x-forwarded-for': from } : {}) },
  });

describe('POST /device/v1/batch', () => {
  it('lets a terminal in from inside its list only (the source TRUST_PROXY gives), storing nothing otherwise', async () => {
    expect((await setSources(fleet.A.car_device_id, CARRIER)).status).toBe(200);
    const before = await count(t.db, 'gps_logs', terminalA.imei);
    for (const outside of ['192.0.2.10', '203.0.114.1', '2001:db9::1', undefined]) {
      const res = await batch(outside, 1);
      expect(res.statusCode, String(outside)).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    // A client's own X-Forwarded-For entry in front of the proxy's is not read.
    expect((await batch('203.0.113.9, 192.0.2.10', 1)).statusCode).toBe(401);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(before);
    expect((await batch('203.0.113.9', 2)).statusCode).toBe(200);
    expect((await batch('198.51.100.7', 3)).statusCode).toBe(200);
    expect((await batch('2001:db8:7::5', 4)).statusCode).toBe(200);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(before + 3);
    expect((await setSources(fleet.A.car_device_id, '')).status).toBe(200);
    expect((await batch(undefined, 5)).statusCode).toBe(200);
  });
});

const BASE_S = Math.floor(Date.parse('2026-01-15T03:00:00Z') / 1000);
const fix = (minute: number) =>
  new URLSearchParams({ id: terminalB.imei, lat: '35.68', lon: '139.76', timestamp: String(BASE_S + minute * 60) });

describe('OsmAnd', () => {
  it('on the main port: a fix from outside the list is refused, from inside stored', async () => {
    expect((await setSources(fleet.B.car_device_id, '203.0.113.0/24')).status).toBe(200);
    const get = (from: string, minute: number) =>
      t.app.inject({
        method: 'GET',
        url: `${OSMAND_PATH}/${TERMINAL_PASSWORD}?${fix(minute)}`,
        headers: { 'x-forwarded-for': from },
      });
    const before = await count(t.db, 'gps_logs', terminalB.imei);
    expect((await get('192.0.2.10', 1)).statusCode).toBe(401);
    expect(await count(t.db, 'gps_logs', terminalB.imei)).toBe(before);
    expect((await get('203.0.113.40', 2)).statusCode).toBe(200);
    expect(await count(t.db, 'gps_logs', terminalB.imei)).toBe(before + 1);
  });

  it('on OSMAND_PORT: the socket’s own address is the source, whatever X-Forwarded-For says', async () => {
    const get = (minute: number) =>
      fetch(`http://127.0.0.1:${listener.port}/${TERMINAL_PASSWORD}?${fix(minute)}`, {
        headers: { 'x-forwarded-for': '203.0.113.40' },
      });
    expect((await setSources(fleet.B.car_device_id, '203.0.113.0/24')).status).toBe(200);
    expect((await get(10)).status).toBe(401);
    expect((await setSources(fleet.B.car_device_id, '203.0.113.0/24, 127.0.0.0/8')).status).toBe(200);
    expect((await get(11)).status).toBe(200);
  });
});
