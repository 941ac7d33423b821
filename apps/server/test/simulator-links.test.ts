import type { DeviceBatchResponse } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { linkHandlers } from '../src/gateway/tcp/link-server.js';
import { linkTransport } from '../src/simulator/link-transport.js';
import type { Transport } from '../src/simulator/transport.js';
import { getSlot, grantEngineControl, reserveEngineOk, stepUp } from './engine-support.js';
import { accounts, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { linkGateway, listen, setProtocol, until } from './link-support.js';
import { latest } from './telemetry-support.js';

/**
 * The simulator's terminals of every TCP protocol: batches become frames on the real listeners, commands come back
 * and are confirmed as the hardware does.
 */
let t: TestApp;
let gateway: LinkGateway;
const listeners: LinkListener[] = [];
let transport: Transport;
const tokens: Record<string, string> = {};
const extraTerminal = (protocol: 'jt808' | 'h02' | 'gps103' | 'gl200', car_data_id: string) => ({
  protocol,
  f: { car_device_id: `sim-${protocol}`, car_data_id, car_id: `sim-car-${protocol}` },
});
const extra = [
  extraTerminal('jt808', '013584091099'),
  extraTerminal('h02', '4210179999'),
  extraTerminal('gps103', '358409100000093'),
  extraTerminal('gl200', '358409100000094'),
];

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  // One more company-A terminal for each of the other protocols, with an id of the form the protocol uses.
  await t.db
    .insertInto('devices')
    .values(
      extra.map((e) => ({
        car_device_id: e.f.car_device_id,
        car_data_id: e.f.car_data_id,
        password_hash: hashDeviceSecret('x'),
        protocol: e.protocol,
      })),
    )
    .execute();
  await t.db
    .insertInto('cars')
    .values(
      extra.map((e) => ({
        car_id: e.f.car_id,
        car_device_id: e.f.car_device_id,
        car_data_id: e.f.car_data_id,
        company_id: fleet.A.company_id,
        user_id: fleet.A.user_id,
      })),
    )
    .execute();
  await grantEngineControl(t.db, accounts.staffA.account_id);
  for (const who of ['staffA', 'adminB']) {
    tokens[who] = await login(t.app, who);
    await stepUp(t.app, tokens[who]!);
  }
  ({ gateway } = linkGateway(t.db));
  const ports: Record<string, number> = {};
  for (const [protocol, handler] of Object.entries(linkHandlers)) {
    const l = await listen(gateway, handler);
    listeners.push(l);
    ports[protocol] = l.port;
  }
  const http: Transport = async () => ({ status: 500, body: null });
  transport = linkTransport(http, { host: '127.0.0.1', ...ports });
});
afterAll(async () => {
  await gateway?.stop();
  for (const l of listeners) await l.close();
  await t?.close();
});

const cases = [
  { protocol: 'teltonika' as const, f: fleet.A, who: 'staffA' },
  { protocol: 'gt06' as const, f: fleet.B, who: 'adminB' },
  ...extra.map((e) => ({ ...e, who: 'staffA' })),
];

describe.each(cases)('the simulated $protocol terminal', ({ protocol, f, who }) => {
  const creds = { car_device_id: f.car_device_id, password: 'x', car_data_id: f.car_data_id, protocol };
  const time = () => new Date().toISOString();
  it('reports, receives a prohibit, and its result closes the command', async () => {
    const first = await transport(creds, {
      seq: 1,
      records: [
        { type: 'engine', time: time(), running: 'off', engine_line: 'connected' },
        { type: 'gps', time: time(), lat: 35.66, lng: 139.7, speed: 0, heading: 10, satellites: 8 },
      ],
    });
    expect(first.status).toBe(200);
    // GPS103 has no ignition report of its own; the others carry it (Queclink as GTIGF).
    expect(await latest(t.db, f.car_data_id)).toMatchObject({
      lat: 35.66,
      lng: 139.7,
      ...(protocol === 'gps103' ? {} : { engine_running: 'off' }),
    });
    const cmd = await reserveEngineOk(t.app, tokens[who]!, f.car_data_id, 1);
    let commands: DeviceBatchResponse['commands'] = [];
    await until(async () => {
      commands = ((await transport(creds, { seq: 2, records: [] })).body as DeviceBatchResponse).commands;
      return commands.length > 0;
    });
    expect(commands[0]!.cmd_info).toEqual({ cmd: 1 });
    await transport(creds, {
      seq: 3,
      records: [{ type: 'command_result', time: time(), command_id: commands[0]!.id, success: true, detail: '' }],
    });
    await until(async () => (await getSlot(t.app, tokens[who]!, f.car_data_id)).state === 3);
    expect((await getSlot(t.app, tokens[who]!, f.car_data_id)).command).toMatchObject({
      command_id: cmd.command_id,
      status: 'succeeded',
    });
    expect((await latest(t.db, f.car_data_id))?.engine_line).toBe('disconnected');
  });
});
