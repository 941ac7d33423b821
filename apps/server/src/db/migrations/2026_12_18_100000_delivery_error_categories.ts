import { type Kysely, sql } from 'kysely';

/**
 * Webhook and push log rows written before calls failed with a category (mail/http-attempt.ts) kept the
 * socket's own message ("fetch failed: connect ECONNREFUSED 127.0.0.1:4159"), which names the address and
 * port tried: a company admin could read the server's network from them. They get the category the call
 * makes today (the texts of deliveryErrorMessages, as they were when this ran); answers (`HTTP <status>`)
 * and other messages stay.
 */
const category = sql.raw(`CASE
    WHEN last_error ~* '(timeout|aborted)' THEN 'タイムアウト'
    WHEN last_error ~* '(ENOTFOUND|EAI_AGAIN|EAI_FAIL|getaddrinfo)' THEN '名前解決できません'
    WHEN last_error ~* '(certificate|CERT_|TLS|SSL)' THEN 'TLS接続に失敗しました（証明書を確認してください）'
    WHEN last_error ~* '(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|socket|connect)' THEN '接続できません'
    ELSE '送信に失敗しました'
  END`);
const fromFetch = sql.raw(`(last_error LIKE 'fetch failed%' OR last_error LIKE 'The operation was aborted%')`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE webhook_deliveries SET last_error = ${category} WHERE ${fromFetch}`.execute(db);
  await sql`UPDATE push_deliveries SET last_error = ${category} WHERE ${fromFetch}`.execute(db);
}
