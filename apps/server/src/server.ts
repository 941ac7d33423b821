import { mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp, defaultWebRoot } from './app.js';
import type { Config } from './config.js';
import { underBootLock } from './db/boot-lock.js';
import { holdDataDir } from './db/data-dir-lock.js';
import { migrate, openDatabase, type Database } from './db/database.js';
import { startJobs } from './jobs/jobs.js';
import { startOsmandListener } from './gateway/osmand-listener.js';
import { startTerminalLinks, type TerminalLinks } from './gateway/tcp/link-server.js';
import { createLiveHub } from './live/live-hub.js';
import { isEmpty, seedDemo } from './seed/seed.js';
import { localBaseUrl, startDemoFleet } from './simulator/demo.js';
import { startupLog } from './ops/startup-log.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  seeded: boolean;
  /** The OSMAND_PORT listener's port, or null when it is off. */
  osmandPort: number | null;
  /** The TELTONIKA_PORT and GT06_PORT listeners' ports, or null when off. */
  teltonikaPort: number | null;
  gt06Port: number | null;
  /** Every TCP protocol's listener port (JT808_PORT, H02_PORT, …), null when off. */
  linkPorts: TerminalLinks['ports'];
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds the demo when empty (never in production) and listens. */
export async function startServer(config: Config, opts: { webRoot?: string } = {}): Promise<RunningServer> {
  if (!config.DATABASE_URL) mkdirSync(config.dataDir, { recursive: true });
  // An embedded database is open in one process only: `npm run fleet -- backup` and a second server refuse while this runs.
  const releaseDataDir = config.DATABASE_URL ? () => undefined : holdDataDir(config.dataDir);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : config.dataDir,
  });
  // Several instances may start at once on one database (replicas, a rolling deploy): one at a time migrates and seeds.
  const seeded = await underBootLock(
    database.db,
    async (db) => {
      await migrate(db);
      const empty = !config.production && (await isEmpty(db));
      if (empty) await seedDemo(db, config.passwordHashLog2N);
      return empty;
    },
    startupLog(config.logFormat, config.LOG_LEVEL),
  );

  // One live push for the HTTP gateway and the TCP terminal links (on PGlite an in-process one).
  const hubLog = { warn: (obj: object, msg: string) => app.log.warn(obj, msg) };
  const live = createLiveHub(database.db, hubLog);
  const app = await buildApp({ db: database.db, config, webRoot: opts.webRoot ?? defaultWebRoot, live });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  const osmand = await startOsmandPort(app, config);
  const links = await startTerminalLinks({
    db: database.db,
    host: config.HOST,
    publicUrl: config.publicUrl,
    teltonikaPort: config.TELTONIKA_PORT,
    gt06Port: config.GT06_PORT,
    jt808Port: config.JT808_PORT,
    h02Port: config.H02_PORT,
    gps103Port: config.GPS103_PORT,
    gl200Port: config.GL200_PORT,
    takeover: config.TERMINAL_TAKEOVER,
    live,
    log: app.log,
  });
  const jobs = startJobs({ db: database.db, config, log: app.log });
  const baseUrl = localBaseUrl(config.HOST, port);
  const linkPorts = { host: new URL(baseUrl).hostname.replace(/^\[|\]$/g, ''), ...links.ports };
  const fleet =
    config.SIMULATE && !config.production ? startDemoFleet({ baseUrl, log: app.log, links: linkPorts }) : undefined;

  return {
    app,
    database,
    url: `http://localhost:${port}`,
    seeded,
    osmandPort: osmand?.port ?? null,
    teltonikaPort: links.teltonikaPort,
    gt06Port: links.gt06Port,
    linkPorts: links.ports,
    stop: async () => {
      await jobs.stop();
      await fleet?.stop();
      await osmand?.close();
      await links.stop();
      await app.close();
      await database.close();
      releaseDataDir();
    },
  };
}

/**
 * OSMAND_PORT's listener. A port already taken (a second instance on the same machine, a test run
 * beside a dev server) is logged loudly and the server goes on: /device/osmand/ on the main port still works.
 */
async function startOsmandPort(app: FastifyInstance, config: Config) {
  if (config.OSMAND_PORT === 0) return undefined;
  try {
    return await startOsmandListener(app, {
      port: config.OSMAND_PORT,
      host: config.HOST,
      timeoutMs: config.REQUEST_TIMEOUT_MS,
    });
  } catch (err) {
    app.log.error(
      { err, port: config.OSMAND_PORT },
      'OSMAND_PORT could not be opened; OsmAnd clients must use /device/osmand/ on the main port',
    );
    return undefined;
  }
}
