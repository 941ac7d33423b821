import { type Kysely, sql } from 'kysely';

/**
 * Telemetry is keyed by the terminal (IMEI) and outlives any vehicle it was
 * fitted to. So that a company reads only what its terminal sent while the
 * terminal was on one of its vehicles, every stretch of time a live vehicle
 * carried a terminal is kept: `terminal_periods` (docs/product.md §6, docs/security.md §8).
 *
 * The rows are written by a trigger on `cars`, so no write path (form,
 * registration wizard, delete/restore, import) can forget them. A period
 * starts where the terminal's previous one ended (a terminal fitted for the
 * first time brings its earlier history along), and ends when the vehicle is
 * deleted, gets another terminal or moves to another company.
 *
 * Existing vehicles: a live one holds its terminal since ever; a deleted one
 * held it until this migration (when it ended is not known).
 */
const statements = [
  `CREATE TABLE terminal_periods (
     id bigserial PRIMARY KEY,
     car_id text NOT NULL,
     car_data_id text NOT NULL,
     company_id text,
     started_at timestamptz NOT NULL,
     ended_at timestamptz
   )`,
  `CREATE INDEX terminal_periods_terminal_idx ON terminal_periods (car_data_id, company_id, started_at)`,
  `CREATE INDEX terminal_periods_open_idx ON terminal_periods (car_id) WHERE ended_at IS NULL`,
  `INSERT INTO terminal_periods (car_id, car_data_id, company_id, started_at, ended_at)
     SELECT car_id, car_data_id, company_id, '-infinity', CASE WHEN is_delete THEN now() END
       FROM cars WHERE car_data_id IS NOT NULL`,
  `CREATE FUNCTION cars_terminal_periods() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     had boolean := false;
     has boolean := false;
   BEGIN
     IF TG_OP <> 'INSERT' THEN had := NOT OLD.is_delete AND OLD.car_data_id IS NOT NULL; END IF;
     IF TG_OP <> 'DELETE' THEN has := NOT NEW.is_delete AND NEW.car_data_id IS NOT NULL; END IF;
     IF had AND has AND OLD.car_id = NEW.car_id AND OLD.car_data_id = NEW.car_data_id
        AND OLD.company_id IS NOT DISTINCT FROM NEW.company_id THEN
       RETURN NULL;
     END IF;
     IF had THEN
       UPDATE terminal_periods SET ended_at = now() WHERE car_id = OLD.car_id AND ended_at IS NULL;
     END IF;
     IF has THEN
       INSERT INTO terminal_periods (car_id, car_data_id, company_id, started_at)
         SELECT NEW.car_id, NEW.car_data_id, NEW.company_id, coalesce(max(p.ended_at), '-infinity')
           FROM terminal_periods p WHERE p.car_data_id = NEW.car_data_id AND p.ended_at IS NOT NULL;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER cars_terminal_periods AFTER INSERT OR DELETE OR UPDATE OF car_id, car_data_id, company_id, is_delete ON cars
     FOR EACH ROW EXECUTE FUNCTION cars_terminal_periods()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
