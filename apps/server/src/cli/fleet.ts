import { mkdirSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { email, idField, password } from '@fleet/contract';
import { z } from 'zod';
import { loadConfig, type Config } from '../config.js';
import { hashPassword } from '../credentials/password.js';
import { underBootLock } from '../db/boot-lock.js';
import { DataDirInUseError, holdDataDir } from '../db/data-dir-lock.js';
import { migrate, openDatabase, type Database } from '../db/database.js';
import { buildInfo } from '../ops/version.js';
import { CopyMismatchError, TargetNotEmptyError, copyToPostgres } from './copy-to-postgres.js';

/**
 * `npm run fleet -- <command>`: the operator's commands, compiled with the server (dist/cli/fleet-main.js).
 * Exit codes: 0 done, 1 failed (the reason on stderr), 2 wrong usage (the command's help on stderr).
 * Passwords are read from a prompt, or from stdin when it is piped, never from the command line:
 * npm echoes its arguments and `ps` shows them to every user of the machine.
 */
export interface FleetIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

class UsageError extends Error {}
class Failure extends Error {}

interface Command {
  /** Japanese first, then English: the operators read Japanese; the English is for scripts' authors and search. */
  help: string;
  options?: Record<string, { type: 'string' | 'boolean' }>;
  positionals?: number;
  run(
    args: { values: Record<string, string | boolean | undefined>; positionals: string[] },
    io: FleetIo,
  ): Promise<void>;
}

const HELP = `使い方: npm run fleet -- <コマンド> [オプション]
Usage:  npm run fleet -- <command> [options]

  create-admin      スーパー管理者を作成 / create a super admin
  reset-password    アカウントのパスワードを再設定 / set an account's password
  migrate           マイグレーションだけを実行して終了 / run the migrations, then exit
  backup <file>     組み込みデータベースをファイルに保存 / save the embedded database to a file
  restore <file>    ファイルから組み込みデータベースを復元 / restore the embedded database from a file
  copy-to-postgres <url>
                    組み込みデータベースを空の PostgreSQL へコピー / copy the embedded database into an empty PostgreSQL
  version           バージョンとコミット / version and commit

各コマンドの詳細: npm run fleet -- <コマンド> --help / Details: npm run fleet -- <command> --help
終了コード / exit codes: 0 成功 ok, 1 失敗 failed, 2 使い方の誤り usage
データベースは DATABASE_URL（PostgreSQL）、なければ DATA_DIR（組み込み PGlite）。
The database is DATABASE_URL (PostgreSQL), else DATA_DIR (embedded PGlite).
`;

const PASSWORD_NOTE = `パスワードは端末で入力を求めます（表示されません）。パイプされた標準入力があればその1行目を使います。
コマンドラインでは受け付けません（ps や npm のログに残るため）。
The password is asked for at the terminal (not echoed), or read from the first line of piped stdin;
never from the command line (ps and npm's log would show it).`;

const line = (stream: Writable, text: string) => stream.write(text.endsWith('\n') ? text : `${text}\n`);

/** The first line of piped stdin, or a prompt whose answer is not echoed. */
async function readPassword(io: FleetIo, prompt: string): Promise<string> {
  if (!io.stdin.isTTY) {
    let text = '';
    for await (const chunk of io.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
      // Echo nothing but the prompt itself.
      const out = rl as unknown as { _writeToOutput: (s: string) => void };
      out._writeToOutput = (s: string) => {
        if (s.startsWith(question)) io.stderr.write(question);
      };
      rl.question(question, (answer) => {
        rl.close();
        io.stderr.write('\n');
        resolve(answer);
      });
    });
  const first = await ask(prompt);
  const again = await ask('もう一度 / again: ');
  if (first !== again) throw new Failure('パスワードが一致しません / the passwords differ');
  return first;
}

const checkedPassword = (text: string) => {
  const result = password().safeParse(text);
  if (!result.success)
    throw new Failure(`パスワード / password: ${result.error.issues.map((i) => i.message).join(' ')}`);
  return result.data;
};

/** Opens the configured database; an embedded one only when no server (or other command) holds its folder. */
async function withDatabase<T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> {
  let release = () => undefined as void;
  if (!config.DATABASE_URL) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      release = holdDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirInUseError)
        throw new Failure(
          `組み込みデータベース ${err.dataDir} はプロセス ${err.pid}（サーバー）が使用中です。サーバーを止めてから実行してください。\n` +
            `The embedded database ${err.dataDir} is in use by process ${err.pid} (the server): stop the server first.`,
        );
      throw err;
    }
  }
  try {
    const database = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATABASE_URL ? undefined : config.dataDir,
    });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

const migrated = (config: Config, work: (database: Database) => Promise<void>) =>
  withDatabase(config, async (database) => {
    await underBootLock(database.db, (db) => migrate(db));
    await work(database);
  });

const embeddedOnly = (config: Config, what: string) => {
  if (config.DATABASE_URL)
    throw new Failure(
      `${what} は組み込みデータベース（DATA_DIR）用です。PostgreSQL は pg_dump / pg_restore を使ってください。\n` +
        `${what} is for the embedded database (DATA_DIR); for PostgreSQL use pg_dump / pg_restore.`,
    );
};

const commands: Record<string, Command> = {
  'create-admin': {
    help: `使い方: npm run fleet -- create-admin --id <アカウントID> --email <メール> [--name <氏名>]
Usage:  npm run fleet -- create-admin --id <account_id> --email <email> [--name <name>]

スーパー管理者を作成します（必要ならマイグレーションを先に実行）。
Creates a super admin (running the migrations first if needed).

${PASSWORD_NOTE}`,
    options: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
    async run({ values }, io) {
      const parsed = z
        .object({ id: idField(), email: email(), name: z.string().min(1).max(255).default('管理者') })
        .safeParse(values);
      if (!parsed.success)
        throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n'));
      const a = parsed.data;
      const config = loadConfig(io.env);
      const secret = checkedPassword(await readPassword(io, 'パスワード / password: '));
      await migrated(config, async ({ db }) => {
        const exists = await db
          .selectFrom('accounts')
          .select('account_id')
          .where((eb) =>
            eb.or([eb('account_id', '=', a.id), eb(eb.fn('lower', ['email']), '=', a.email.toLowerCase())]),
          )
          .executeTakeFirst();
        if (exists)
          throw new Failure(
            `アカウントID またはメールアドレスは既に登録されています: ${a.id}\nThe account ID or email is taken: ${a.id}`,
          );
        await db
          .insertInto('accounts')
          .values({
            account_id: a.id,
            email: a.email,
            name: a.name,
            role: 0,
            company_id: null,
            password_hash: await hashPassword(secret, config.passwordHashLog2N),
          })
          .execute();
        line(io.stdout, `スーパー管理者 ${a.id} を作成しました。 / Super admin ${a.id} created.`);
      });
    },
  },
  'reset-password': {
    help: `使い方: npm run fleet -- reset-password --id <アカウントID>
Usage:  npm run fleet -- reset-password --id <account_id>

アカウントのパスワードを設定し、そのアカウントのセッションをすべて終了します。
Sets an account's password and ends every session of the account.

${PASSWORD_NOTE}`,
    options: { id: { type: 'string' } },
    async run({ values }, io) {
      const id = idField().safeParse(values.id);
      if (!id.success) throw new UsageError(`--id: ${id.error.issues.map((i) => i.message).join(' ')}`);
      const config = loadConfig(io.env);
      const secret = checkedPassword(await readPassword(io, '新しいパスワード / new password: '));
      await migrated(config, async ({ db }) => {
        const hash = await hashPassword(secret, config.passwordHashLog2N);
        const done = await db.transaction().execute(async (trx) => {
          const updated = await trx
            .updateTable('accounts')
            .set({ password_hash: hash })
            .where('account_id', '=', id.data)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) return false;
          await trx
            .updateTable('sessions')
            .set({ revoked_at: new Date() })
            .where('account_id', '=', id.data)
            .where('revoked_at', 'is', null)
            .execute();
          return true;
        });
        if (!done) throw new Failure(`アカウントがありません: ${id.data}\nNo such account: ${id.data}`);
        line(io.stdout, `${id.data} のパスワードを設定しました。 / Password of ${id.data} set.`);
      });
    },
  },
  migrate: {
    help: `使い方: npm run fleet -- migrate
Usage:  npm run fleet -- migrate

未適用のマイグレーションを実行して終了します（サーバーは起動時にも実行します）。戻すマイグレーションはありません。
Runs the pending migrations and exits (the server also runs them at start). There are no down migrations.`,
    async run(_args, io) {
      const config = loadConfig(io.env);
      await withDatabase(config, async ({ db }) => {
        const applied = await underBootLock(db, (locked) => migrate(locked));
        for (const name of applied) line(io.stdout, name);
        line(
          io.stdout,
          `${applied.length} 件のマイグレーションを適用しました。 / ${applied.length} migrations applied.`,
        );
      });
    },
  },
  backup: {
    help: `使い方: npm run fleet -- backup <ファイル>
Usage:  npm run fleet -- backup <file>

組み込みデータベース（DATA_DIR）を1つのファイル（gzip 圧縮の tar）に保存します。
サーバーが動いている間は拒否します（PGlite は1つのプロセスしか開けません）。サーバーを止めてから実行してください。
PostgreSQL（DATABASE_URL）には pg_dump を使ってください。
Saves the embedded database (DATA_DIR) to one file (a gzipped tar). Refused while the server runs
(PGlite is open in one process only): stop the server first. For PostgreSQL (DATABASE_URL) use pg_dump.`,
    positionals: 1,
    async run({ positionals }, io) {
      const [file = ''] = positionals;
      const config = loadConfig(io.env);
      embeddedOnly(config, 'backup');
      await withDatabase(config, async ({ pglite }) => {
        const dump = await pglite!.dumpDataDir('gzip');
        await writeFile(file, Buffer.from(await dump.arrayBuffer()));
        line(io.stdout, `${config.dataDir} を ${file} に保存しました。 / Saved ${config.dataDir} to ${file}.`);
      });
    },
  },
  restore: {
    help: `使い方: npm run fleet -- restore <ファイル>
Usage:  npm run fleet -- restore <file>

backup で作ったファイルから組み込みデータベースを DATA_DIR に復元します。DATA_DIR は存在しないか空でなければなりません
（今のデータを上書きしないため。古いフォルダは移動してから実行してください）。サーバーは止めておきます。
Restores the embedded database into DATA_DIR from a file made by backup. DATA_DIR must be absent or empty
(the current data is never overwritten: move the old folder away first). The server must be stopped.`,
    positionals: 1,
    async run({ positionals }, io) {
      const [file = ''] = positionals;
      const config = loadConfig(io.env);
      embeddedOnly(config, 'restore');
      let contents: Buffer;
      try {
        contents = await readFile(file);
      } catch (err) {
        throw new Failure(`${file} を読めません / cannot read ${file}: ${(err as Error).message}`);
      }
      let existing: string[] = [];
      try {
        existing = readdirSync(config.dataDir);
      } catch {
        // Absent: created below.
      }
      if (existing.length > 0)
        throw new Failure(
          `DATA_DIR ${config.dataDir} は空ではありません。移動または削除してから復元してください。\n` +
            `DATA_DIR ${config.dataDir} is not empty: move it away (or delete it) before restoring.`,
        );
      mkdirSync(config.dataDir, { recursive: true });
      const release = holdDataDir(config.dataDir);
      try {
        const database = await openDatabase({ dataDir: config.dataDir, loadDataDir: new Blob([contents]) });
        await database.close();
      } finally {
        release();
      }
      line(io.stdout, `${file} を ${config.dataDir} に復元しました。 / Restored ${file} into ${config.dataDir}.`);
    },
  },
  'copy-to-postgres': {
    help: `使い方: npm run fleet -- copy-to-postgres <postgres://…>
Usage:  npm run fleet -- copy-to-postgres <postgres://…>

組み込みデータベース（DATA_DIR）の全テーブル（ログの日別パーティションを含む）を、空の PostgreSQL データベースへ
コピーします。コピー先にはマイグレーションを実行し（未実行なら）、シーケンスを合わせ、テーブルごとの行数を照合します。
全体が1つのトランザクションなので、失敗してもコピー先は空のままです。データのあるコピー先は拒否します（終了コード 1）。
サーバーは止めておきます。終わったら DATABASE_URL にこの URL を設定して起動します。
パスワードは URL に書かず PGPASSWORD か ~/.pgpass でも渡せます（ps に表示されないように）。
Copies every table of the embedded database (DATA_DIR), the logs' day partitions included, into an empty
PostgreSQL database: migrates the target (if needed), sets its sequences and checks every table's row count.
It is one transaction, so a failure leaves the target empty. A target holding data is refused (exit 1).
The server must be stopped. Then start it with DATABASE_URL set to this URL.
The password can stay out of the URL (and out of ps): PGPASSWORD or ~/.pgpass.`,
    positionals: 1,
    async run({ positionals }, io) {
      const [url = ''] = positionals;
      if (!/^postgres(?:ql)?:\/\//.test(url))
        throw new UsageError(`PostgreSQL の URL ではありません / not a PostgreSQL URL: ${url}`);
      // The source is always the embedded database, whatever DATABASE_URL says.
      const config = loadConfig({ ...io.env, DATABASE_URL: '' });
      await migrated(config, async ({ pglite }) => {
        await migrateTarget(url);
        let report;
        try {
          report = await copyToPostgres({ source: pglite!, targetUrl: url });
        } catch (err) {
          if (err instanceof TargetNotEmptyError)
            throw new Failure(
              `コピー先のデータベースにはデータがあります（${err.tables.map((t) => `${t.name} ${t.rows} 行`).join('、')}）。` +
                `空のデータベースを指定してください。\n` +
                `The target database is not empty (${err.tables.map((t) => `${t.name}: ${t.rows} rows`).join(', ')}): ` +
                `give an empty database.`,
            );
          if (err instanceof CopyMismatchError)
            throw new Failure(
              `コピーを中止しました（コピー先は変更していません） / copy abandoned, target unchanged: ${err.message}`,
            );
          throw err;
        }
        for (const t of report.tables) line(io.stdout, `${t.name}\t${t.rows}`);
        const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
        line(
          io.stdout,
          `${report.tables.length} テーブル ${rows} 行、パーティション ${report.partitionsCreated.length} 個作成、シーケンス ${report.sequences} 個をコピーしました（行数照合済み）。\n` +
            `Copied ${report.tables.length} tables, ${rows} rows (counts checked), created ${report.partitionsCreated.length} partitions, set ${report.sequences} sequences.\n` +
            `DATABASE_URL にこの URL を設定して起動してください。 / Now start the server with DATABASE_URL set to this URL.`,
        );
      });
    },
  },
  version: {
    help: `使い方: npm run fleet -- version
Usage:  npm run fleet -- version

バージョンとビルドしたコミットを表示します。 / Prints the version and the commit it was built from.`,
    async run(_args, io) {
      const info = buildInfo();
      line(io.stdout, `${info.version}${info.commit ? ` (${info.commit})` : ''}`);
    },
  },
};

/** Migrates copy-to-postgres' target, as a server's start would. */
async function migrateTarget(url: string) {
  const target = await openDatabase({ url, poolSize: 1 });
  try {
    await underBootLock(target.db, (db) => migrate(db));
  } catch (err) {
    throw new Failure(`コピー先のデータベースを準備できません / cannot prepare the target: ${(err as Error).message}`);
  } finally {
    await target.close();
  }
}

/** Runs one command; resolves to the exit code. */
export async function runFleet(argv: string[], io: FleetIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    line(name === undefined ? io.stderr : io.stdout, HELP);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = commands[name];
  if (!command) {
    line(io.stderr, `不明なコマンド / unknown command: ${name}\n\n${HELP}`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    line(io.stdout, command.help);
    return EXIT_OK;
  }
  if (rest.some((a) => a === '--password' || a.startsWith('--password=')))
    return usage(
      io,
      command,
      '--password は使えません。パスワードは入力を求められるか、標準入力から読みます。\n' +
        '--password is not accepted: the password is asked for, or read from stdin.',
    );
  let args: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    args = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    return usage(io, command, (err as Error).message);
  }
  if (args.positionals.length !== (command.positionals ?? 0))
    return usage(io, command, `引数の数が違います / wrong number of arguments: ${args.positionals.length}`);
  try {
    await command.run(args, io);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError) return usage(io, command, err.message);
    line(io.stderr, err instanceof Error ? err.message : String(err));
    return EXIT_FAILED;
  }
}

function usage(io: FleetIo, command: Command, message: string) {
  line(io.stderr, `${message}\n\n${command.help}`);
  return EXIT_USAGE;
}
