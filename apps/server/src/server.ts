import { mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp, defaultWebRoot } from './app.js';
import type { Config } from './config.js';
import { underBootLock } from './db/boot-lock.js';
import { migrate, openDatabase, type Database } from './db/database.js';
import { startJobs } from './jobs/jobs.js';
import { isEmpty, seedDemo } from './seed/seed.js';
import { localBaseUrl, startDemoFleet } from './simulator/demo.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  seeded: boolean;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds the demo when empty (never in production) and listens. */
export async function startServer(config: Config, opts: { webRoot?: string } = {}): Promise<RunningServer> {
  if (!config.DATABASE_URL) mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : config.dataDir });
  // Several instances may start at once on one database (replicas, a rolling deploy): one at a time migrates and seeds.
  const seeded = await underBootLock(database.db, async (db) => {
    await migrate(db);
    const empty = !config.production && (await isEmpty(db));
    if (empty) await seedDemo(db);
    return empty;
  });

  const app = await buildApp({ db: database.db, config, webRoot: opts.webRoot ?? defaultWebRoot });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;

  const jobs = startJobs({ db: database.db, config, log: app.log });
  const fleet = config.SIMULATE && !config.production ? startDemoFleet({ baseUrl: localBaseUrl(config.HOST, port), log: app.log }) : undefined;

  return {
    app,
    database,
    url: `http://localhost:${port}`,
    seeded,
    stop: async () => {
      await jobs.stop();
      await fleet?.stop();
      await app.close();
      await database.close();
    },
  };
}
