import { parseArgs } from 'node:util';
import { email, idField, password } from '@fleet/contract';
import { z } from 'zod';
import { hashPassword } from '../credentials/password.js';
import { loadConfig } from '../config.js';
import { migrate, openDatabase } from '../db/database.js';

/**
 * npm run create-admin -- --id ID --email EMAIL --password PW [--name NAME]
 * Creates a super admin in whichever database the environment selects.
 */
const { values } = parseArgs({
  options: {
    id: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
  },
  strict: true,
});
const Args = z.object({
  id: idField(),
  email: email(),
  password: password(),
  name: z.string().min(1).max(255).default('管理者'),
});
const parsed = Args.safeParse(values);
if (!parsed.success) {
  for (const i of parsed.error.issues) console.error(`--${i.path.join('.')}: ${i.message}`);
  console.error(
    'usage: npm run create-admin -- --id <account_id> --email <email> --password <password> [--name <name>]',
  );
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATABASE_URL ? undefined : config.dataDir,
});
try {
  await migrate(database.db);
  const a = parsed.data;
  const exists = await database.db
    .selectFrom('accounts')
    .select('account_id')
    .where((eb) => eb.or([eb('account_id', '=', a.id), eb(eb.fn('lower', ['email']), '=', a.email.toLowerCase())]))
    .executeTakeFirst();
  if (exists) {
    console.error(`アカウントID またはメールアドレスは既に登録されています: ${a.id}`);
    process.exitCode = 1;
  } else {
    await database.db
      .insertInto('accounts')
      .values({
        account_id: a.id,
        email: a.email,
        name: a.name,
        role: 0,
        company_id: null,
        password_hash: await hashPassword(a.password, config.passwordHashLog2N),
      })
      .execute();
    console.log(`スーパー管理者 ${a.id} を作成しました。`);
  }
} finally {
  await database.close();
}
