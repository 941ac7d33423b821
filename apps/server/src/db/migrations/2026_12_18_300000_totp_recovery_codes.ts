import { type Kysely, sql } from 'kysely';

/**
 * Recovery codes of 二段階認証 (docs/security.md "二段階認証"): ten single-use codes per account with
 * TOTP on, each stored as the SHA-256 of its 80 random bits (never the code). `used_at` marks one used,
 * in the UPDATE that accepts it, so two requests cannot both use it. The rows go with the account's
 * TOTP (turned off, or the account deleted).
 */
const statements = [
  `CREATE TABLE account_totp_recovery_codes (
     account_id text NOT NULL REFERENCES account_totp (account_id) ON DELETE CASCADE,
     code_hash text NOT NULL,
     used_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (account_id, code_hash)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
