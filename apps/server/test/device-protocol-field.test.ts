import {
  deviceAdd,
  deviceGetDetail,
  deviceList,
  deviceUpdate,
  terminalIdRules,
  terminalProtocolMessages,
  type Call,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createTestApp, login, seedFixtures, unchecked, type TestApp } from './helper.js';

/** The terminal's protocol and command texts on the device_* calls (issue #14). */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  token = await login(t.app, 'superAdmin');
});
afterAll(() => t?.close());

/** A device call's raw answer (bodies here are often refused on purpose: unchecked). */
const call = async (c: Call, body: object) => (await callAs(t.app, token, c, unchecked(body))).raw;
const device = (id: string, over: object = {}) => ({
  car_device_id: id,
  password: 'terminal-pass',
  car_data_id: '351234567890555',
  ...over,
});
const row = (id: string) =>
  t.db
    .selectFrom('devices')
    .select(['protocol', 'cmd_cut_text', 'cmd_restore_text'])
    .where('car_device_id', '=', id)
    .executeTakeFirst();

describe('device protocol', () => {
  it('registers a terminal as json by default, and with OsmAnd when chosen; list and detail say which', async () => {
    expect((await call(deviceAdd, { info: device('proto-json', { car_data_id: '351234567890501' }) })).statusCode).toBe(
      200,
    );
    expect(await row('proto-json')).toEqual({ protocol: 'json', cmd_cut_text: '', cmd_restore_text: '' });
    const res = await call(deviceAdd, { info: device('proto-osm', { protocol: 'osmand' }) });
    expect(res.statusCode, res.body).toBe(200);
    const detail = (await call(deviceGetDetail, { car_device_id: 'proto-osm' })).json();
    expect(detail).toMatchObject({ protocol: 'osmand', cmd_cut_text: '', cmd_restore_text: '' });
    const list = (await call(deviceList, { search_item: '0', search_text: 'proto-osm' })).json().list;
    expect(list).toEqual([expect.objectContaining({ car_device_id: 'proto-osm', protocol: 'osmand' })]);
  });

  it('keeps command text overrides for a Teltonika terminal', async () => {
    const info = device('proto-osm', {
      password: '',
      protocol: 'teltonika',
      cmd_cut_text: ' setigndigout 1 ',
      cmd_restore_text: 'setigndigout 0',
    });
    expect((await call(deviceUpdate, { info })).statusCode).toBe(200);
    expect(await row('proto-osm')).toEqual({
      protocol: 'teltonika',
      cmd_cut_text: 'setigndigout 1',
      cmd_restore_text: 'setigndigout 0',
    });
  });

  it('refuses an unknown protocol and unprintable or long command texts in Japanese, changing nothing', async () => {
    const res = await call(deviceAdd, {
      info: device('proto-bad', {
        car_data_id: '351234567890502',
        protocol: 'mqtt',
        cmd_cut_text: 'リレー',
        cmd_restore_text: 'x'.repeat(129),
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'info.protocol': terminalProtocolMessages.protocol,
      'info.cmd_cut_text': terminalProtocolMessages.commandText,
      'info.cmd_restore_text': terminalProtocolMessages.commandText,
    });
    expect(await row('proto-bad')).toBeUndefined();
  });

  it('takes a 10-digit H02 id and a 12-digit JT/T 808 number, refusing an IMEI as a JT/T 808 id in Japanese', async () => {
    expect(
      (await call(deviceAdd, { info: device('proto-h02', { protocol: 'h02', car_data_id: '4210209006' }) })).statusCode,
    ).toBe(200);
    expect((await row('proto-h02'))?.protocol).toBe('h02');
    const ok = await call(deviceAdd, {
      info: device('proto-jt808', { protocol: 'jt808', car_data_id: '013511221122' }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const res = await call(deviceAdd, {
      info: device('proto-jt808b', { protocol: 'jt808', car_data_id: '351234567890503' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'info.car_data_id': terminalIdRules.jt808.message });
    expect(await row('proto-jt808b')).toBeUndefined();
  });
});
