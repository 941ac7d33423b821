import { type Kysely, sql } from 'kysely';

/**
 * The session cache hears every change to what it holds, whoever makes it (docs/security.md §2): triggers send the
 * `fleet_sessions` signal (sessions/session-cache.ts) from the database itself, at commit, so a session or
 * an account's authority changed by SQL outside the app (a support script, another tool, a restore) is
 * forgotten by every instance at once instead of being served for up to the cache's 10 s. The app still
 * signals its own changes after commit (this instance forgets before the NOTIFY comes back; PGlite has
 * no LISTEN of its own and no outside writer).
 * - sessions: revocation, expiry, step-up, selection, deletion of a live one ('t:<token hash>'); not
 *   last_seen_at alone, which every call slides, nor the purge of ended sessions;
 * - accounts: name, role, company, password, engine-control right, deletion ('a:<account id>');
 * - account_totp: set up, enabled, removed ('a:<account id>');
 * - companies: the TOTP policy ('*': every session may change).
 */
const statements = [
  `CREATE FUNCTION fleet_session_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_TABLE_NAME = 'sessions' THEN
      IF TG_OP = 'DELETE' THEN
        -- A purge of ended sessions says nothing: the cache never serves a revoked or expired one.
        IF OLD.revoked_at IS NULL AND OLD.expires_at > now() THEN
          PERFORM pg_notify('fleet_sessions', 't:' || OLD.token_hash);
        END IF;
      ELSIF (OLD.revoked_at, OLD.expires_at, OLD.stepped_up_until, OLD.sel_account_id,
          OLD.sel_company_id, OLD.sel_car_id, OLD.sel_user_id, OLD.sel_data_id, OLD.sel_device_id)
          IS DISTINCT FROM (NEW.revoked_at, NEW.expires_at, NEW.stepped_up_until, NEW.sel_account_id,
          NEW.sel_company_id, NEW.sel_car_id, NEW.sel_user_id, NEW.sel_data_id, NEW.sel_device_id) THEN
        PERFORM pg_notify('fleet_sessions', 't:' || OLD.token_hash);
      END IF;
    ELSIF TG_TABLE_NAME = 'accounts' THEN
      IF TG_OP = 'DELETE' OR (OLD.account_id, OLD.name, OLD.role, OLD.company_id, OLD.password_hash,
          OLD.engine_control, OLD.is_delete) IS DISTINCT FROM (NEW.account_id, NEW.name, NEW.role,
          NEW.company_id, NEW.password_hash, NEW.engine_control, NEW.is_delete) THEN
        PERFORM pg_notify('fleet_sessions', 'a:' || OLD.account_id);
      END IF;
    ELSIF TG_TABLE_NAME = 'account_totp' THEN
      IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('fleet_sessions', 'a:' || NEW.account_id);
      ELSIF TG_OP = 'DELETE' OR OLD.secret IS DISTINCT FROM NEW.secret THEN
        PERFORM pg_notify('fleet_sessions', 'a:' || OLD.account_id);
      END IF;
    ELSIF TG_TABLE_NAME = 'companies' THEN
      IF OLD.require_totp IS DISTINCT FROM NEW.require_totp THEN
        PERFORM pg_notify('fleet_sessions', '*');
      END IF;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER sessions_signal AFTER UPDATE OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION fleet_session_signal()`,
  `CREATE TRIGGER accounts_session_signal AFTER UPDATE OR DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION fleet_session_signal()`,
  `CREATE TRIGGER account_totp_session_signal AFTER INSERT OR UPDATE OR DELETE ON account_totp
    FOR EACH ROW EXECUTE FUNCTION fleet_session_signal()`,
  `CREATE TRIGGER companies_session_signal AFTER UPDATE ON companies
    FOR EACH ROW EXECUTE FUNCTION fleet_session_signal()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
