import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { linkProtocols, terminalProtocols, type LinkProtocol } from '@fleet/contract';
import { z } from 'zod';
import { demoTerminals } from '../simulator/demo.js';
import { createFleet, type FleetTerminal } from '../simulator/fleet.js';
import { linkTransport, withOpenLinks } from '../simulator/link-transport.js';
import { httpTransport } from '../simulator/transport.js';

/** The listeners' default ports (the server's *_PORT settings). */
const defaultPorts: Record<LinkProtocol, number> = {
  teltonika: 5027,
  gt06: 5023,
  jt808: 5015,
  h02: 5013,
  gps103: 5001,
  gl200: 5004,
};
const portOption = (p: LinkProtocol) => `${p}-port` as const;

/**
 * npm run simulate -- [--url URL] [--terminals N] [--devices FILE] [--duration S]
 *                     [--flush-interval S] [--gps-interval S] [--seed N]
 * Drives simulated terminals through the real device protocol against a server.
 */
const usage = `usage: npm run simulate -- [options]
  --url URL             server to report to (default http://localhost:3000)
  --terminals N         use the first N demo terminals (default: all 20)
  --devices FILE        JSON array of {car_device_id, password, car_data_id, protocol?, region?} instead of the demo fleet
  --duration S          stop after S seconds (default: run until Ctrl+C)
  --flush-interval S    seconds between batches per terminal (default 5)
  --gps-interval S      seconds between GPS fixes while driving (default 5)
  --seed N              random seed (default: from the clock)
  --<protocol>-port N   the server's port for that protocol's demo terminal (0 = leave it out); defaults:
                        ${Object.entries(defaultPorts)
                          .map(([p, n]) => `--${p}-port ${n}`)
                          .join(', ')}`;

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    terminals: { type: 'string' },
    devices: { type: 'string' },
    duration: { type: 'string', default: '0' },
    'flush-interval': { type: 'string', default: '5' },
    'gps-interval': { type: 'string', default: '5' },
    seed: { type: 'string' },
    ...Object.fromEntries(
      linkProtocols.map((p) => [portOption(p), { type: 'string' as const, default: String(defaultPorts[p]) }]),
    ),
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const seconds = z.coerce
  .number()
  .int()
  .min(0)
  .max(10 ** 7);
const Args = z.object({
  url: z.url(),
  terminals: z.coerce.number().int().min(1).optional(),
  duration: seconds,
  'flush-interval': seconds.min(1),
  'gps-interval': seconds.min(1),
  seed: z.coerce.number().int().optional(),
  ...Object.fromEntries(linkProtocols.map((p) => [portOption(p), z.coerce.number().int().min(0).max(65535)])),
});
const parsed = Args.safeParse(values);
if (!parsed.success) {
  for (const i of parsed.error.issues) console.error(`--${i.path.join('.')}: ${i.message}`);
  console.error(usage);
  process.exit(2);
}
const args = parsed.data;

const DeviceList = z.array(
  z.object({
    car_device_id: z.string().min(1),
    password: z.string().min(1),
    car_data_id: z.string().min(1),
    protocol: z.enum(terminalProtocols).optional(),
    region: z.enum(['tokyo', 'kanagawa']).optional(),
  }),
);
let terminals: FleetTerminal[] = values.devices
  ? DeviceList.parse(JSON.parse(await readFile(values.devices, 'utf8')))
  : demoTerminals();
if (args.terminals) terminals = terminals.slice(0, args.terminals);
const ports = args as unknown as Record<string, number>;
const links = {
  host: new URL(args.url).hostname.replace(/^\[|\]$/g, ''),
  ...Object.fromEntries(linkProtocols.map((p) => [p, ports[portOption(p)] || null])),
};
terminals = withOpenLinks(terminals, links);

const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m) };
const fleet = createFleet({
  terminals,
  transport: linkTransport(httpTransport(args.url), links),
  seed: args.seed ?? Date.now() % 2 ** 31,
  flushInterval: args['flush-interval'],
  vehicle: { gpsInterval: args['gps-interval'] },
  log,
});

console.log(`シミュレーター: ${terminals.length} 台の端末が ${args.url} に送信します（Ctrl+C で停止）`);
fleet.start();

const report = () => {
  const s = fleet.stats();
  const driving = fleet.terminals.filter((t) => t.vehicle.mode === 'driving').length;
  console.log(
    `走行中 ${driving}/${s.terminals} 台, 送信 ${s.batches} バッチ, 受理 ${s.accepted} 件, 拒否 ${s.rejected} 件, 再送 ${s.retries} 回, コマンド ${s.commands} 件, 未送信 ${s.queued} 件${s.refused ? `, 認証拒否 ${s.refused} 台` : ''}`,
  );
};
const status = setInterval(report, 30_000);

const finish = async () => {
  clearInterval(status);
  await fleet.stop();
  report();
  process.exit(0);
};
if (args.duration > 0) setTimeout(() => void finish(), args.duration * 1000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void finish());
