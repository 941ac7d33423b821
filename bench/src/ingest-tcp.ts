import { createServer, type AddressInfo } from 'node:net';
import { createLiveHub } from '@fleet/server/live-hub';
import { startTerminalLinks } from '@fleet/server/terminal-links';
import { runClient } from './child.js';
import type { BenchDb } from './db.js';
import { deviceId, imei, TERMINAL_SECRET } from './generate.js';
import type { IngestPlan } from './ingest-records.js';
import type { Report } from './report.js';
import type { BenchServer } from './server.js';
import { int, ms } from './stats.js';

/**
 * §2 beside the JSON gateway: ingest over the Teltonika TCP listener (issue #14).
 * The server's TELTONIKA_PORT listener (startTerminalLinks, as startServer opens
 * it) runs on a free port over the bench database; `terminals` generated
 * terminals are registered as Teltonika for the section (and put back after
 * it), and a client process of its own (clients/ingest-tcp.ts) logs each in
 * over its own socket and sends Codec 8 AVL frames of `recordsPerFrame`
 * records back to back, each after the previous one's acknowledgement, which
 * the server sends once the records are committed. Anchor: the JSON gateway
 * measured in the same section with the same shape (as many terminals, each
 * sending as many batches of as many records), so the ratio compares the two
 * ways in on the same server, database and machine load.
 */
export interface TcpIngestOptions {
  terminals: number;
  framesPerTerminal: number;
  recordsPerFrame: number;
}

type TcpResult = {
  connected: number;
  loginErrors: number;
  loginSeconds: number;
  records: number;
  frames: number;
  errors: number;
  failures: string[];
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

type JsonResult = { accepted: number; errors: number; failures: string[]; seconds: number };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function benchIngestTcp(bdb: BenchDb, server: BenchServer, report: Report, opts: TcpIngestOptions) {
  const n = opts.terminals;
  const plan = (): IngestPlan => ({
    terminals: n,
    batchesPerTerminal: opts.framesPerTerminal,
    recordsPerBatch: opts.recordsPerFrame,
    start: Date.now() - (opts.framesPerTerminal * opts.recordsPerFrame + 60) * 1000,
  });
  // The JSON anchor's terminals are the first n (as §2's); the Teltonika ones the next n, the Queclink ones the n after.
  const jsonIds = Array.from({ length: n }, (_, t) => deviceId(t + 1));
  const tcpIds = Array.from({ length: n }, (_, t) => deviceId(n + t + 1));
  const tcpImeis = Array.from({ length: n }, (_, t) => imei(n + t + 1));
  const glIds = Array.from({ length: n }, (_, t) => deviceId(2 * n + t + 1));
  const glImeis = Array.from({ length: n }, (_, t) => imei(2 * n + t + 1));
  const before = await bdb.raw<{ car_device_id: string; protocol: string; ipaddr: string }>(
    'SELECT car_device_id, protocol, ipaddr FROM devices WHERE car_device_id = ANY($1::text[])',
    [[...tcpIds, ...glIds]],
  );
  if (before.length !== 2 * n) throw new Error(`the fleet has ${before.length} of the ${2 * n} terminals needed`);
  // Teltonika, from any address (the generated terminals have an ipaddr of 10.x.x.x, an allow-list for TCP logins).
  await bdb.raw(`UPDATE devices SET protocol = 'teltonika', ipaddr = '' WHERE car_device_id = ANY($1::text[])`, [
    tcpIds,
  ]);
  await bdb.raw(`UPDATE devices SET protocol = 'gl200', ipaddr = '' WHERE car_device_id = ANY($1::text[])`, [glIds]);

  let warnings = 0;
  const log = {
    info: () => undefined,
    warn: (obj: object, msg: string) => {
      if (warnings++ < 5) console.log(`  server warn: ${msg} ${JSON.stringify(obj).slice(0, 200)}`);
    },
    error: (obj: object, msg: string) => console.log(`  server error: ${msg} ${JSON.stringify(obj).slice(0, 200)}`),
  };
  // The live push as the app's own: NOTIFY per commit on PostgreSQL, in-process on PGlite.
  const live = createLiveHub(bdb.db, log);
  const links = await startTerminalLinks({
    db: bdb.db,
    host: '127.0.0.1',
    publicUrl: 'http://bench.invalid',
    teltonikaPort: await freePort(),
    gt06Port: 0,
    gl200Port: await freePort(),
    live,
    log,
  });
  try {
    if (links.teltonikaPort === null) throw new Error('the Teltonika listener did not open');
    if (links.ports.gl200 === null) throw new Error('the Queclink listener did not open');
    const json = await runClient<JsonResult>('ingest.ts', {
      ...plan(),
      url: server.url,
      ids: jsonIds,
      secret: TERMINAL_SECRET,
      // New numbers every run, also on a kept database (a seen seq is a resend and stores nothing).
      seqBase: Date.now() * 100,
    });
    const tcp = await runClient<TcpResult>('ingest-tcp.ts', {
      ...plan(),
      host: '127.0.0.1',
      port: links.teltonikaPort,
      imeis: tcpImeis,
    });
    const gl = await runClient<TcpResult>('ingest-tcp.ts', {
      ...plan(),
      host: '127.0.0.1',
      port: links.ports.gl200,
      imeis: glImeis,
      protocol: 'gl200',
    });
    const records = n * opts.framesPerTerminal * opts.recordsPerFrame;
    const jsonRate = json.accepted / json.seconds;
    const tcpRate = tcp.records / tcp.seconds;
    const shape = `${n} sockets × ${opts.framesPerTerminal} frames × ${opts.recordsPerFrame} AVL records`;
    report.add({
      section: '2 ingest tcp',
      name: `Teltonika Codec 8 records/s committed (${shape}, each frame after the previous one's ack)`,
      value: `${int(tcpRate)} records/s, ${int(tcp.frames / tcp.seconds)} frames/s (${int(tcp.records)} of ${int(records)} acknowledged, ${tcp.errors} errors)`,
      anchor: `JSON gateway, same shape (${n} terminals × ${opts.framesPerTerminal} batches × ${opts.recordsPerFrame} records): ${int(jsonRate)} records/s, ${int((n * opts.framesPerTerminal) / json.seconds)} batches/s, ${json.errors} errors`,
      ratio: `${(tcpRate / jsonRate).toFixed(2)}× JSON`,
    });
    report.add({
      section: '2 ingest tcp',
      name: `frame sent → acknowledged (committed), ${tcp.connected} sockets sending back to back`,
      value: `p50 ${ms(tcp.p50)} / p95 ${ms(tcp.p95)} / p99 ${ms(tcp.p99)} / max ${ms(tcp.max)} ms`,
    });
    report.add({
      section: '2 ingest tcp',
      name: `logins (IMEI → 01, connection recorded), 50 at a time`,
      value: `${tcp.connected} of ${n} in ${tcp.loginSeconds.toFixed(1)} s, ${tcp.loginErrors} refused or failed`,
    });
    const glRate = gl.records / gl.seconds;
    report.add({
      section: '2 ingest tcp',
      name: `Queclink @Track GTFRI fixes/s committed (${n} sockets × ${opts.framesPerTerminal} reports of the same fixes, each followed by a GTHBD whose SACK says it is in)`,
      value: `${int(glRate)} fixes/s, ${int(gl.frames / gl.seconds)} reports/s (${gl.errors} errors); report sent → SACK p50 ${ms(gl.p50)} / p99 ${ms(gl.p99)} ms`,
      anchor: `Teltonika above: ${int(tcpRate)} records/s`,
      ratio: `${(glRate / tcpRate).toFixed(2)}× Teltonika`,
    });
    for (const f of [...json.failures, ...tcp.failures, ...gl.failures]) report.note(`ingest-tcp failure: ${f}`);
    if (warnings > 0) report.note(`ingest-tcp: the TCP listener logged ${warnings} warning(s)`);
  } finally {
    await links.stop();
    await live.close();
    await bdb.raw(
      `UPDATE devices AS d SET protocol = v.protocol, ipaddr = v.ipaddr
       FROM unnest($1::text[], $2::text[], $3::text[]) AS v(id, protocol, ipaddr) WHERE d.car_device_id = v.id`,
      [before.map((d) => d.car_device_id), before.map((d) => d.protocol), before.map((d) => d.ipaddr)],
    );
  }
}
