import { type Kysely, sql } from 'kysely';

/**
 * The two role rules the database itself needs, each written once, as functions the triggers, the
 * authority check and the repositories call (TypeScript has the same rules in the contract's
 * permissions.ts: `defaultEngineControl`, `isSuperAdmin`; test/account-rights.test.ts keeps them equal):
 * - `account_engine_right(engine_control, role)`: an account's エンジン制御権限, its own setting or, when
 *   null, its role's default (on for administrators and managers, off for common accounts).
 * - `account_is_super_admin(role, company_id)`: an administrator without a company.
 * `engine_authority_lapse` and `accounts_cancel_pending` (migration engine_authority) are redefined to
 * call them, with no other change.
 */
const statements = [
  `CREATE FUNCTION account_engine_right(p_engine_control boolean, p_role smallint)
   RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(p_engine_control, p_role <= 1) $$`,
  `CREATE FUNCTION account_is_super_admin(p_role smallint, p_company_id text)
   RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT p_role = 0 AND p_company_id IS NULL $$`,

  `CREATE OR REPLACE FUNCTION engine_authority_lapse(p_account text, p_car_id text, p_car_data_id text, p_cmd_type text)
   RETURNS text LANGUAGE sql STABLE AS $$
     SELECT CASE
       WHEN a.account_id IS NULL OR a.is_delete THEN 'アカウントが削除されたため取消'
       WHEN car.car_id IS NULL OR car.is_delete THEN '車両が削除されたため取消'
       WHEN p_car_data_id IS NOT NULL AND car.car_data_id IS DISTINCT FROM p_car_data_id THEN '端末が別の車両に移ったため取消'
       WHEN p_cmd_type <> 'set_engine_boot_permission' THEN
         CASE WHEN account_is_super_admin(a.role, a.company_id) THEN NULL ELSE '権限がなくなったため取消' END
       WHEN NOT account_engine_right(a.engine_control, a.role) THEN '権限がなくなったため取消'
       WHEN account_is_super_admin(a.role, a.company_id) THEN NULL
       WHEN a.company_id IS DISTINCT FROM car.company_id THEN '権限がなくなったため取消'
     END
     FROM (SELECT 1) one
     LEFT JOIN accounts a ON a.account_id = p_account
     LEFT JOIN cars car ON car.car_id = p_car_id
   $$`,

  `CREATE OR REPLACE FUNCTION accounts_cancel_pending() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.is_delete AND NOT OLD.is_delete THEN
       PERFORM cancel_waiting_commands(ARRAY(
         SELECT id FROM reserved_commands WHERE created_by = NEW.account_id AND state = 1 AND deleted_at IS NULL),
         'アカウントが削除されたため取消');
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests WHERE created_by = NEW.account_id AND status = 'pending'),
         'アカウントが削除されたため取消');
     ELSIF (account_engine_right(OLD.engine_control, OLD.role) AND NOT account_engine_right(NEW.engine_control, NEW.role))
           OR OLD.role IS DISTINCT FROM NEW.role OR OLD.company_id IS DISTINCT FROM NEW.company_id THEN
       PERFORM cancel_waiting_commands(ARRAY(
         SELECT id FROM reserved_commands rc WHERE rc.created_by = NEW.account_id AND rc.state = 1 AND rc.deleted_at IS NULL
           AND engine_authority_lapse(rc.created_by, rc.car_id, rc.car_data_id, rc.cmd_type) IS NOT NULL),
         '権限がなくなったため取消');
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests r WHERE r.created_by = NEW.account_id AND r.status = 'pending'
           AND engine_authority_lapse(r.created_by, r.car_id, NULL, 'set_engine_boot_permission') IS NOT NULL),
         '権限がなくなったため取消');
     END IF;
     RETURN NULL;
   END $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
