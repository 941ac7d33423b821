import { type Kysely, sql } from 'kysely';

/**
 * 二段階認証 (TOTP, RFC 6238; docs/decisions.md "TOTP sign-in").
 *
 * - `account_totp`: one row per account that started setting it up. `pending_secret` is the secret
 *   shown by totp_setup until the first right code confirms it; `secret` is the confirmed one, never
 *   answered again. `last_step` is the 30-second time step of the last code accepted, so a code cannot
 *   be used twice (checked and moved in one UPDATE, so two requests cannot both use it).
 * - `companies.require_totp`: the company requires it of all its accounts.
 */
const statements = [
  `CREATE TABLE account_totp (
     account_id text PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE,
     secret text,
     pending_secret text,
     enabled_at timestamptz,
     last_step bigint,
     updated_at timestamptz NOT NULL DEFAULT now(),
     CHECK ((secret IS NULL) = (enabled_at IS NULL))
   )`,
  `ALTER TABLE companies ADD COLUMN require_totp boolean NOT NULL DEFAULT false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
