import { type Kysely, sql } from 'kysely';

/**
 * A server cancellation stores its reason as a code, not as Japanese text: the texts live in the contract
 * alone (`cancelReasons` in packages/contract/src/engine.ts), and the repositories that read a reason turn a
 * code into its text (`cancelReasonText`). The codes are the keys of `cancelReasons`: creatorDeleted,
 * noRight, carDeleted, terminalMoved, companyChanged.
 *
 * - `engine_right_lost(account, car_id, car_data_id, cmd_type)` replaces `engine_authority_lapse` (the same
 *   rule, by a plainer name): why a creator no longer holds the right over the vehicle a terminal is on now,
 *   as a code; null while they do. The gateway's hand-out, the request scheduler and the trigger on accounts
 *   ask it.
 * - `cars_cancel_pending()` and `accounts_cancel_pending()` (migrations engine_authority, account_rights) are
 *   redefined with the codes and no other change.
 *
 * Rows cancelled before keep their text; reading one gives it back as it is.
 */
const statements = [
  `CREATE FUNCTION engine_right_lost(p_account text, p_car_id text, p_car_data_id text, p_cmd_type text)
   RETURNS text LANGUAGE sql STABLE AS $$
     SELECT CASE
       WHEN a.account_id IS NULL OR a.is_delete THEN 'creatorDeleted'
       WHEN car.car_id IS NULL OR car.is_delete THEN 'carDeleted'
       WHEN p_car_data_id IS NOT NULL AND car.car_data_id IS DISTINCT FROM p_car_data_id THEN 'terminalMoved'
       WHEN p_cmd_type <> 'set_engine_boot_permission' THEN
         CASE WHEN account_is_super_admin(a.role, a.company_id) THEN NULL ELSE 'noRight' END
       WHEN NOT account_engine_right(a.engine_control, a.role) THEN 'noRight'
       WHEN account_is_super_admin(a.role, a.company_id) THEN NULL
       WHEN a.company_id IS DISTINCT FROM car.company_id THEN 'noRight'
     END
     FROM (SELECT 1) one
     LEFT JOIN accounts a ON a.account_id = p_account
     LEFT JOIN cars car ON car.car_id = p_car_id
   $$`,

  `CREATE OR REPLACE FUNCTION cars_cancel_pending() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     why text;
   BEGIN
     IF NEW.is_delete AND NOT OLD.is_delete THEN why := 'carDeleted';
     ELSIF OLD.company_id IS DISTINCT FROM NEW.company_id THEN why := 'companyChanged';
     ELSIF OLD.car_data_id IS DISTINCT FROM NEW.car_data_id THEN why := 'terminalMoved';
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

  `CREATE OR REPLACE FUNCTION accounts_cancel_pending() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.is_delete AND NOT OLD.is_delete THEN
       PERFORM cancel_waiting_commands(ARRAY(
         SELECT id FROM reserved_commands WHERE created_by = NEW.account_id AND state = 1 AND deleted_at IS NULL),
         'creatorDeleted');
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests WHERE created_by = NEW.account_id AND status = 'pending'),
         'creatorDeleted');
     ELSIF (account_engine_right(OLD.engine_control, OLD.role) AND NOT account_engine_right(NEW.engine_control, NEW.role))
           OR OLD.role IS DISTINCT FROM NEW.role OR OLD.company_id IS DISTINCT FROM NEW.company_id THEN
       PERFORM cancel_waiting_commands(ARRAY(
         SELECT id FROM reserved_commands rc WHERE rc.created_by = NEW.account_id AND rc.state = 1 AND rc.deleted_at IS NULL
           AND engine_right_lost(rc.created_by, rc.car_id, rc.car_data_id, rc.cmd_type) IS NOT NULL),
         'noRight');
       PERFORM cancel_pending_requests(ARRAY(
         SELECT request_id FROM reservation_requests r WHERE r.created_by = NEW.account_id AND r.status = 'pending'
           AND engine_right_lost(r.created_by, r.car_id, NULL, 'set_engine_boot_permission') IS NOT NULL),
         'noRight');
     END IF;
     RETURN NULL;
   END $$`,

  `DROP FUNCTION engine_authority_lapse(text, text, text, text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
