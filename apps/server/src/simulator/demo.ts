import { demoFleet } from '../seed/demo-data.js';
import { createFleet, type Fleet, type FleetLog, type FleetTerminal } from './fleet.js';
import { linkTransport, withOpenLinks, type LinkPorts } from './link-transport.js';
import { httpTransport } from './transport.js';

/** The terminals of the demo seed with their passwords and protocols; Kanagawa's four drive around Yokohama. */
export function demoTerminals(): FleetTerminal[] {
  return demoFleet().map((f) => ({
    car_device_id: f.device.car_device_id,
    password: f.device.password,
    car_data_id: f.device.car_data_id,
    ...(f.device.protocol !== 'json' ? { protocol: f.device.protocol } : {}),
    region: f.car.company_id === 'kanagawa-auto' ? 'kanagawa' : 'tokyo',
  }));
}

/** How this process reaches a server it listens with: wildcard hosts mean loopback. */
export function localBaseUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** The demo fleet reporting to a running server in real time: over HTTP, and over TCP for the terminals of a TCP protocol. */
export function startDemoFleet(opts: {
  baseUrl: string;
  log?: FleetLog;
  terminals?: FleetTerminal[];
  links?: LinkPorts;
}): Fleet {
  const http = httpTransport(opts.baseUrl);
  const fleet = createFleet({
    terminals: opts.links
      ? withOpenLinks(opts.terminals ?? demoTerminals(), opts.links)
      : (opts.terminals ?? demoTerminals()),
    transport: opts.links ? linkTransport(http, opts.links) : http,
    seed: Date.now() % 2 ** 31,
    ...(opts.log ? { log: opts.log } : {}),
  });
  fleet.start();
  return fleet;
}
