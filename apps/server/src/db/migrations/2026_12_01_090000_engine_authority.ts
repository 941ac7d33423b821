import { type Kysely, sql } from 'kysely';

/**
 * Authority at every step (docs/engine-control.md, docs/engine-control.md).
 *
 * - `accounts.engine_control` (エンジン制御権限); null means the role's default, on for roles 0-1 and off
 *   for role 2, so an account written by any path (seed, create-admin, a test) gets the safe default.
 *   Read it as `coalesce(engine_control, role <= 1)`.
 * - `sessions.stepped_up_until`: a prohibit needs the password re-entered within 5 minutes.
 * - Commands and requests remember the vehicle and company they were made for (`car_id`,
 *   `company_id`): a company reads only its own, whatever terminal or vehicle they concern now.
 * - `engine_authority_lapse()` says why a creator no longer holds the right over the vehicle a
 *   terminal is on now (null while they do). The gateway's hand-out, the request scheduler and the
 *   triggers below all ask it, so the rule is written once.
 * - Triggers on `cars` and `accounts` cancel what was pending the moment a vehicle is deleted, moves
 *   company or loses its terminal, or an account is deleted or loses the right: status `cancelled`,
 *   a timeline event and an audit row with the reason. The triggers make it visible at once; the
 *   checks at hand-out and firing are what make it safe, whatever path changed the data.
 *
 * The reasons are the texts of the contract's `cancelReasons` (a test keeps them equal).
 */
const statements = [
  `ALTER TABLE accounts ADD COLUMN engine_control boolean`,
  `ALTER TABLE sessions ADD COLUMN stepped_up_until timestamptz`,

  `ALTER TABLE reserved_commands
     ADD COLUMN car_id text,
     ADD COLUMN company_id text,
     ADD COLUMN cancel_reason text`,
  `ALTER TABLE reserved_commands DROP CONSTRAINT reserved_commands_closed_reason_check`,
  `ALTER TABLE reserved_commands ADD CONSTRAINT reserved_commands_closed_reason_check
     CHECK (closed_reason IN ('deleted', 'expired', 'cancelled'))`,
  `ALTER TABLE reserved_command_events ADD COLUMN reason text`,
  `ALTER TABLE reservation_requests ADD COLUMN company_id text`,
  // Existing commands belong to the vehicle carrying their terminal (a live one first).
  `UPDATE reserved_commands rc SET car_id = c.car_id, company_id = c.company_id
     FROM (SELECT DISTINCT ON (car_data_id) car_data_id, car_id, company_id FROM cars
           WHERE car_data_id IS NOT NULL ORDER BY car_data_id, is_delete, updated_at DESC) c
     WHERE c.car_data_id = rc.car_data_id`,
  `UPDATE reservation_requests r SET company_id = c.company_id FROM cars c WHERE c.car_id = r.car_id`,
  `CREATE INDEX reserved_commands_car_idx ON reserved_commands (car_id) WHERE deleted_at IS NULL AND state = 1`,
  `CREATE INDEX reserved_commands_creator_idx ON reserved_commands (created_by) WHERE deleted_at IS NULL AND state = 1`,
  `CREATE INDEX reservation_requests_creator_idx ON reservation_requests (created_by) WHERE status = 'pending'`,

  `CREATE FUNCTION engine_authority_lapse(p_account text, p_car_id text, p_car_data_id text, p_cmd_type text)
   RETURNS text LANGUAGE sql STABLE AS $$
     SELECT CASE
       WHEN a.account_id IS NULL OR a.is_delete THEN 'アカウントが削除されたため取消'
       WHEN car.car_id IS NULL OR car.is_delete THEN '車両が削除されたため取消'
       WHEN p_car_data_id IS NOT NULL AND car.car_data_id IS DISTINCT FROM p_car_data_id THEN '端末が別の車両に移ったため取消'
       WHEN p_cmd_type <> 'set_engine_boot_permission' THEN
         CASE WHEN a.role = 0 AND a.company_id IS NULL THEN NULL ELSE '権限がなくなったため取消' END
       WHEN NOT coalesce(a.engine_control, a.role <= 1) THEN '権限がなくなったため取消'
       WHEN a.role = 0 AND a.company_id IS NULL THEN NULL
       WHEN a.company_id IS DISTINCT FROM car.company_id THEN '権限がなくなったため取消'
     END
     FROM (SELECT 1) one
     LEFT JOIN accounts a ON a.account_id = p_account
     LEFT JOIN cars car ON car.car_id = p_car_id
   $$`,

  `CREATE FUNCTION cancel_waiting_commands(p_ids bigint[], p_reason text) RETURNS void LANGUAGE sql AS $$
     WITH closed AS (
       UPDATE reserved_commands SET deleted_at = now(), closed_reason = 'cancelled', cancel_reason = p_reason
       WHERE id = ANY(p_ids) AND state = 1 AND deleted_at IS NULL
       RETURNING id, car_id, car_data_id, company_id, created_by
     ), events AS (
       INSERT INTO reserved_command_events (command_id, state, event, account_id, reason)
       SELECT id, 1, 'cancelled', NULL, p_reason FROM closed
     )
     INSERT INTO audit_log (account_id, action, target_type, target_id, detail)
     SELECT NULL, 'engine_command.cancel', 'engine_command', id::text,
            jsonb_build_object('car_id', car_id, 'car_data_id', car_data_id, 'company_id', company_id,
                               'created_by', created_by, 'reason', p_reason)
     FROM closed
   $$`,

  `CREATE FUNCTION cancel_pending_requests(p_ids text[], p_reason text) RETURNS void LANGUAGE sql AS $$
     WITH closed AS (
       UPDATE reservation_requests SET status = 'cancelled', reason = p_reason, cancelled_at = now(), cancelled_by = NULL
       WHERE request_id = ANY(p_ids) AND status = 'pending'
       RETURNING request_id, car_id, company_id, created_by
     )
     INSERT INTO audit_log (account_id, action, target_type, target_id, detail)
     SELECT NULL, 'reservation_request.cancel', 'reservation_request', request_id,
            jsonb_build_object('car_id', car_id, 'company_id', company_id, 'created_by', created_by, 'reason', p_reason)
     FROM closed
   $$`,

  `CREATE FUNCTION cars_cancel_pending() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     why text;
   BEGIN
     IF NEW.is_delete AND NOT OLD.is_delete THEN why := '車両が削除されたため取消';
     ELSIF OLD.company_id IS DISTINCT FROM NEW.company_id THEN why := '車両の所属会社が変わったため取消';
     ELSIF OLD.car_data_id IS DISTINCT FROM NEW.car_data_id THEN why := '端末が別の車両に移ったため取消';
     ELSE RETURN NULL;
     END IF;
     PERFORM cancel_waiting_commands(ARRAY(
       SELECT id FROM reserved_commands WHERE car_id = OLD.car_id AND state = 1 AND deleted_at IS NULL), why);
     -- A request is about the vehicle, not the terminal: a new terminal carries it out.
     IF OLD.car_data_id IS NOT DISTINCT FROM NEW.car_data_id OR NEW.is_delete OR OLD.company_id IS DISTINCT FROM NEW.company_id THEN
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests WHERE car_id = OLD.car_id AND status = 'pending'), why);
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER cars_cancel_pending AFTER UPDATE OF car_data_id, company_id, is_delete ON cars
     FOR EACH ROW EXECUTE FUNCTION cars_cancel_pending()`,

  `CREATE FUNCTION accounts_cancel_pending() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.is_delete AND NOT OLD.is_delete THEN
       PERFORM cancel_waiting_commands(ARRAY(
         SELECT id FROM reserved_commands WHERE created_by = NEW.account_id AND state = 1 AND deleted_at IS NULL),
         'アカウントが削除されたため取消');
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests WHERE created_by = NEW.account_id AND status = 'pending'),
         'アカウントが削除されたため取消');
     ELSIF (coalesce(OLD.engine_control, OLD.role <= 1) AND NOT coalesce(NEW.engine_control, NEW.role <= 1)) OR OLD.role IS DISTINCT FROM NEW.role
           OR OLD.company_id IS DISTINCT FROM NEW.company_id THEN
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
  `CREATE TRIGGER accounts_cancel_pending AFTER UPDATE OF is_delete, engine_control, role, company_id ON accounts
     FOR EACH ROW EXECUTE FUNCTION accounts_cancel_pending()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
