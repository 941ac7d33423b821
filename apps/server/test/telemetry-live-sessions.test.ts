import { accountDelete, accountUpdate, LIVE_PATH, logout, passwordReset, type LiveState } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { subscribeChannel } from '../src/db/channel.js';
import { poolOf, type Database } from '../src/db/database.js';
import { LIVE_CHANNEL, LIVE_HUB_CHANNELS } from '../src/live/live-hub.js';
import {
  FIXTURE_PASSWORD,
  callAs,
  companyA,
  companyB,
  createTestApp,
  login,
  seedFixtures,
  type TestApp,
} from './helper.js';
import { openLive, secondInstance, sendBatch, terminalA } from './telemetry-support.js';

/**
 * A live stream ends with the session it was opened with, on every instance at
 * once: logout, a password change, the account's deletion, a new role or
 * company and a changed engine right close the account's streams on the
 * instance that made the change and on a second one sharing the database
 * (PostgreSQL: its own pool and LISTEN connection; PGlite: a second app in the
 * same process), and no position reported after the change reaches them.
 */
const onPostgres = !!inject('databaseUrl');

let t: TestApp;
let two: Awaited<ReturnType<typeof secondInstance>>;
let other: FastifyInstance;
let second: Database | undefined;
/** Where each instance listens: [the first, the second]. */
let bases: string[];

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_CACHE: 'true' } });
  await seedFixtures(t.db);
  two = await secondInstance(t);
  ({ other, second, bases } = two);
});
afterAll(async () => {
  await two?.close();
  await t?.close();
});

let accountNo = 0;
/** A fresh manager of company A with the engine right, signed in on the first instance. */
async function newAccount() {
  const account_id = `live-${++accountNo}`;
  await t.db
    .insertInto('accounts')
    .values({
      account_id,
      name: `配信 ${accountNo}`,
      email: `${account_id}@example.jp`,
      role: 1,
      company_id: companyA,
      engine_control: true,
      password_hash: inject('fixturePasswordHash'),
    })
    .execute();
  return { account_id, email: `${account_id}@example.jp`, token: await login(t.app, account_id) };
}

interface Stream {
  events: { event: string; data: unknown }[];
  /** The next position pushed with this latitude. */
  position(lat: number): Promise<LiveState>;
  /** Resolves when the server ended the stream; fails if it is still open after 20 s. */
  ended(): Promise<void>;
  close(): void;
}

/** Opens the live stream of a session on an instance and reads its snapshot. */
async function openStream(base: string, token: string): Promise<Stream> {
  const live = await openLive(`${base}${LIVE_PATH}`, { authorization: `Bearer ${token}` });
  const { events, until } = live;
  const stream: Stream = {
    events,
    position: (lat) =>
      until(() => {
        const e = events.find((e) => e.event === 'state' && (e.data as LiveState).lat === lat);
        if (e) return e.data as LiveState;
        if (live.finished()) throw new Error(`the stream ended before the position ${lat}`);
        return undefined;
      }, `the position ${lat}`),
    ended: () => until(() => (live.finished() ? true : undefined), 'the end of the stream').then(() => undefined),
    close: live.close,
  };
  await until(() => events.find((e) => e.event === 'snapshot'), 'the snapshot');
  return stream;
}

let seq = 0;
let lat = 35.6;
/** Terminal A reports a new position through each instance; returns its latitude. */
async function report(): Promise<number> {
  lat = Math.round((lat + 0.001) * 1000) / 1000;
  for (const app of [t.app, other]) {
    const time = new Date(Date.now() - 60_000 + seq * 10).toISOString();
    const res = await sendBatch(app, terminalA, { seq: ++seq, records: [{ type: 'gps', time, lat, lng: 139.7 }] });
    expect(res.statusCode, res.body).toBe(200);
  }
  return lat;
}

/**
 * Opens the session's stream on both instances, checks that both get a position, makes the change,
 * reports another position, and waits for both streams to end: none got the later position.
 */
async function endsEverywhere(token: string, change: () => Promise<void>, expired = true) {
  const streams = await Promise.all(bases.map((base) => openStream(base, token)));
  try {
    const before = await report();
    for (const s of streams) await s.position(before);
    await change();
    const after = await report();
    for (const s of streams) await s.ended();
    for (const s of streams) {
      expect(s.events.filter((e) => e.event === 'state' && (e.data as LiveState).lat === after)).toEqual([]);
      if (expired) expect(s.events.at(-1)?.event).toBe('expired');
    }
    return after;
  } finally {
    for (const s of streams) s.close();
  }
}

const edit = (
  a: { account_id: string; email: string },
  info: { role?: number; company_id?: string; engine_control?: boolean },
) => ({
  info: {
    account_id: a.account_id,
    name: '配信 変更',
    email: a.email,
    role: info.role ?? 1,
    company_id: info.company_id ?? companyA,
    ...(info.engine_control === undefined ? {} : { engine_control: info.engine_control }),
  },
});

describe('a live stream ends with its session, on every instance', () => {
  it('on logout (made on the second instance)', async () => {
    const a = await newAccount();
    await endsEverywhere(a.token, async () => {
      expect((await callAs(other, a.token, logout, {})).status).toBe(200);
    });
  });

  it('on a password change: the other sessions of the account, not the one that made it', async () => {
    const a = await newAccount();
    const kept = await Promise.all(bases.map((base) => openStream(base, a.token)));
    const ended = await login(t.app, a.account_id);
    try {
      const after = await endsEverywhere(ended, async () => {
        const res = await callAs(t.app, a.token, passwordReset, {
          info: { current_password: FIXTURE_PASSWORD, password: 'new-pass-123', password_confirm: 'new-pass-123' },
        });
        expect(res.status, res.raw.body).toBe(200);
      });
      for (const s of kept) expect(await s.position(after)).toMatchObject({ car_data_id: terminalA.imei });
    } finally {
      for (const s of kept) s.close();
    }
  });

  it('on a password set by a manager', async () => {
    const a = await newAccount();
    const admin = await login(t.app, 'adminA');
    await endsEverywhere(a.token, async () => {
      const res = await callAs(other, admin, passwordReset, {
        info: { account_id: a.account_id, password: 'new-pass-123', password_confirm: 'new-pass-123' },
      });
      expect(res.status, res.raw.body).toBe(200);
    });
  });

  it('when the account is deleted', async () => {
    const a = await newAccount();
    const admin = await login(t.app, 'adminA');
    await endsEverywhere(a.token, async () => {
      const res = await callAs(t.app, admin, accountDelete, { account_id: a.account_id, isDelete: true });
      expect(res.status, res.raw.body).toBe(200);
    });
  });

  it('when the role changes', async () => {
    const a = await newAccount();
    const admin = await login(t.app, 'adminA');
    await endsEverywhere(a.token, async () => {
      const res = await callAs(t.app, admin, accountUpdate, edit(a, { role: 2 }));
      expect(res.status, res.raw.body).toBe(200);
    });
  });

  it('when the company changes', async () => {
    const a = await newAccount();
    const superAdmin = await login(t.app, 'superAdmin');
    await endsEverywhere(a.token, async () => {
      const res = await callAs(t.app, superAdmin, accountUpdate, edit(a, { company_id: companyB }));
      expect(res.status, res.raw.body).toBe(200);
    });
  });

  it('when the engine right is taken away (the session lives on: the stream ends without "expired")', async () => {
    const a = await newAccount();
    const admin = await login(t.app, 'adminA');
    await endsEverywhere(
      a.token,
      async () => {
        const res = await callAs(t.app, admin, accountUpdate, edit(a, { engine_control: false }));
        expect(res.status, res.raw.body).toBe(200);
      },
      false,
    );
  });

  it('but not when the account changes in a way that leaves its authority as it was (a new name)', async () => {
    const a = await newAccount();
    const admin = await login(t.app, 'adminA');
    const streams = await Promise.all(bases.map((base) => openStream(base, a.token)));
    try {
      const res = await callAs(t.app, admin, accountUpdate, edit(a, {}));
      expect(res.status, res.raw.body).toBe(200);
      const after = await report();
      for (const s of streams) expect(await s.position(after)).toMatchObject({ car_data_id: terminalA.imei });
    } finally {
      for (const s of streams) s.close();
    }
  });

  it.runIf(onPostgres)(
    'when SQL outside the app moves the account to another company (sessions untouched)',
    async () => {
      const a = await newAccount();
      await endsEverywhere(
        a.token,
        async () => {
          await t.db
            .updateTable('accounts')
            .set({ company_id: companyB })
            .where('account_id', '=', a.account_id)
            .execute();
        },
        false,
      );
    },
  );

  it.runIf(onPostgres)(
    'nothing published after the change is pushed while the check waits for the database',
    async () => {
      const a = await newAccount();
      const stream = await openStream(bases[1]!, a.token);
      // Every connection of the second instance's pool is taken: its check of the session cannot run yet.
      const pool = poolOf(second!.db)!;
      const taken = await Promise.all(Array.from({ length: pool.options.max! }, () => pool.connect()));
      try {
        let heard!: () => void;
        const arrived = new Promise<void>((resolve) => (heard = resolve));
        const silent = { warn: () => undefined };
        // The stream's hub listens on this connection first: when this listener hears the position, the stream has too.
        const sub = subscribeChannel(second!.db, LIVE_HUB_CHANNELS, silent, {
          message: (payload, name) => {
            if (name === LIVE_CHANNEL && (JSON.parse(payload) as LiveState).lat === lat) heard();
          },
        });
        await sub.listening();
        expect((await callAs(t.app, a.token, logout, {})).status).toBe(200);
        lat = Math.round((lat + 0.001) * 1000) / 1000;
        const res = await sendBatch(t.app, terminalA, {
          seq: ++seq,
          records: [{ type: 'gps', time: new Date(Date.now() - 60_000 + seq * 10).toISOString(), lat, lng: 139.7 }],
        });
        expect(res.statusCode, res.body).toBe(200);
        await arrived;
        await sub.close();
      } finally {
        for (const c of taken) c.release();
      }
      await stream.ended();
      expect(stream.events.map((e) => e.event)).toEqual(['snapshot', 'expired']);
    },
  );
});
