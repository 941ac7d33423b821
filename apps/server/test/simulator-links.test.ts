import type { DeviceBatchResponse } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gt06Protocol } from '../src/gateway/tcp/gt06-link.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { teltonikaProtocol } from '../src/gateway/tcp/teltonika-link.js';
import { linkTransport } from '../src/simulator/link-transport.js';
import type { Transport } from '../src/simulator/transport.js';
import { getSlot, grantEngineControl, reserveEngineOk, stepUp } from './engine-support.js';
import { accounts, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { linkGateway, listen, setProtocol, until } from './link-support.js';
import { latest } from './telemetry-support.js';

/** The simulator's Teltonika and GT06 terminals: batches become frames on the real listeners, commands come back and are answered. */
let t: TestApp;
let gateway: LinkGateway;
let listeners: LinkListener[] = [];
let transport: Transport;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  await grantEngineControl(t.db, accounts.staffA.account_id);
  for (const who of ['staffA', 'adminB']) {
    tokens[who] = await login(t.app, who);
    await stepUp(t.app, tokens[who]!);
  }
  ({ gateway } = linkGateway(t.db));
  listeners = [await listen(gateway, teltonikaProtocol), await listen(gateway, gt06Protocol)];
  const http: Transport = async () => ({ status: 500, body: null });
  transport = linkTransport(http, {
    host: '127.0.0.1',
    teltonikaPort: listeners[0]!.port,
    gt06Port: listeners[1]!.port,
  });
});
afterAll(async () => {
  await gateway?.stop();
  for (const l of listeners) await l.close();
  await t?.close();
});

const cases = [
  { protocol: 'teltonika' as const, f: fleet.A, who: 'staffA' },
  { protocol: 'gt06' as const, f: fleet.B, who: 'adminB' },
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
    expect(await latest(t.db, f.car_data_id)).toMatchObject({ lat: 35.66, lng: 139.7, engine_running: 'off' });
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
