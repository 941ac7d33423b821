import { type Kysely, sql } from 'kysely';

/**
 * The whole schema of docs/product.md §3 and docs/decisions.md. Frozen: later changes
 * come as new migrations, never edits here.
 */
const statements = [
  `CREATE TABLE companies (
    company_id   text PRIMARY KEY,
    company_name text NOT NULL,
    name         text NOT NULL DEFAULT '',
    address      text NOT NULL DEFAULT '',
    phone        text NOT NULL DEFAULT '',
    email        text NOT NULL DEFAULT '',
    is_delete    boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE accounts (
    account_id    text PRIMARY KEY,
    name          text NOT NULL,
    email         text NOT NULL,
    role          smallint NOT NULL CHECK (role BETWEEN 0 AND 2),
    company_id    text REFERENCES companies(company_id),
    password_hash text NOT NULL,
    is_delete     boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email))`,
  `CREATE INDEX accounts_company_idx ON accounts (company_id, account_id)`,
  `CREATE TABLE sessions (
    token_hash      text PRIMARY KEY,
    account_id      text NOT NULL REFERENCES accounts(account_id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_seen_at    timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    revoked_at      timestamptz,
    sel_account_id  text,
    sel_company_id  text,
    sel_car_id      text,
    sel_user_id     text,
    sel_data_id     text,
    sel_device_id   text
  )`,
  `CREATE INDEX sessions_account_idx ON sessions (account_id)`,
  `CREATE TABLE login_attempts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ip          text NOT NULL,
    username    text NOT NULL,
    succeeded   boolean NOT NULL,
    at          timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, at)`,
  `CREATE INDEX login_attempts_user_idx ON login_attempts (username, at)`,
  `CREATE TABLE car_users (
    user_id          text PRIMARY KEY,
    company_id       text REFERENCES companies(company_id),
    first_name       text NOT NULL DEFAULT '',
    name             text NOT NULL DEFAULT '',
    work_postal      text NOT NULL DEFAULT '',
    work_state       text NOT NULL DEFAULT '',
    work_address     text NOT NULL DEFAULT '',
    work_address_sub text NOT NULL DEFAULT '',
    work_phone       text NOT NULL DEFAULT '',
    merchant         text NOT NULL DEFAULT '',
    birthday         date,
    gender           smallint,
    user_postal      text NOT NULL DEFAULT '',
    user_state       text NOT NULL DEFAULT '',
    user_address     text NOT NULL DEFAULT '',
    user_address_sub text NOT NULL DEFAULT '',
    payment_log      smallint NOT NULL DEFAULT 0 CHECK (payment_log BETWEEN 0 AND 3),
    state            smallint NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 3),
    detail           text NOT NULL DEFAULT '',
    is_delete        boolean NOT NULL DEFAULT false,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX car_users_company_idx ON car_users (company_id, user_id)`,
  `CREATE TABLE devices (
    car_device_id text PRIMARY KEY,
    password_hash text NOT NULL,
    ipaddr        text NOT NULL DEFAULT '',
    macaddr       text NOT NULL DEFAULT '',
    car_type      text NOT NULL DEFAULT '',
    car_data_id   text NOT NULL,
    is_delete     boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX devices_imei_key ON devices (car_data_id)`,
  `CREATE TABLE cars (
    car_id        text PRIMARY KEY,
    company_id    text REFERENCES companies(company_id),
    car_number    text NOT NULL DEFAULT '',
    car_type      text NOT NULL DEFAULT '',
    car_vin       text NOT NULL DEFAULT '',
    user_id       text REFERENCES car_users(user_id),
    car_device_id text REFERENCES devices(car_device_id),
    car_data_id   text,
    car_status    smallint NOT NULL DEFAULT 0,
    lat_min       double precision,
    lat_max       double precision,
    lng_min       double precision,
    lng_max       double precision,
    is_delete     boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX cars_company_idx ON cars (company_id, car_id)`,
  `CREATE INDEX cars_user_idx ON cars (user_id)`,
  `CREATE UNIQUE INDEX cars_device_key ON cars (car_device_id) WHERE car_device_id IS NOT NULL AND NOT is_delete`,
  `CREATE INDEX cars_data_idx ON cars (car_data_id)`,
  `CREATE TABLE areas (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_id    text NOT NULL REFERENCES cars(car_id) ON DELETE CASCADE,
    kind      text NOT NULL CHECK (kind IN ('available', 'disable')),
    position  integer NOT NULL DEFAULT 0,
    name      text NOT NULL DEFAULT '',
    lat_min   double precision NOT NULL,
    lat_max   double precision NOT NULL,
    lng_min   double precision NOT NULL,
    lng_max   double precision NOT NULL
  )`,
  `CREATE INDEX areas_car_idx ON areas (car_id, kind, position)`,
  `CREATE TABLE area_templates (
    template_id text PRIMARY KEY,
    type        text NOT NULL CHECK (type IN ('available', 'disable')),
    name        text NOT NULL,
    company_id  text REFERENCES companies(company_id),
    areas       jsonb NOT NULL DEFAULT '[]',
    created_by  text REFERENCES accounts(account_id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX area_templates_type_idx ON area_templates (company_id, type)`,
  `CREATE TABLE reserved_commands (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    cmd_idx     integer NOT NULL,
    cmd_type    text NOT NULL,
    cmd_info    jsonb NOT NULL DEFAULT '{}',
    state       smallint NOT NULL CHECK (state BETWEEN 0 AND 3),
    created_by  text REFERENCES accounts(account_id),
    request_id  text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    fetched_at  timestamptz,
    result_at   timestamptz,
    result      jsonb,
    deleted_at  timestamptz
  )`,
  `CREATE UNIQUE INDEX reserved_commands_active_key ON reserved_commands (car_data_id, cmd_idx)
     WHERE state IN (1, 2) AND deleted_at IS NULL`,
  `CREATE INDEX reserved_commands_device_idx ON reserved_commands (car_data_id, created_at)`,
  `CREATE TABLE reserved_command_events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    command_id  bigint NOT NULL REFERENCES reserved_commands(id) ON DELETE CASCADE,
    state       smallint NOT NULL,
    event       text NOT NULL,
    account_id  text,
    at          timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX reserved_command_events_cmd_idx ON reserved_command_events (command_id, at)`,
  `CREATE TABLE reservation_requests (
    request_id  text PRIMARY KEY,
    car_id      text NOT NULL REFERENCES cars(car_id),
    cmd         smallint NOT NULL CHECK (cmd IN (0, 1)),
    execute_at  timestamptz NOT NULL,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'fired', 'cancelled', 'failed')),
    command_id  bigint REFERENCES reserved_commands(id),
    created_by  text REFERENCES accounts(account_id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    fired_at    timestamptz
  )`,
  `CREATE INDEX reservation_requests_due_idx ON reservation_requests (execute_at) WHERE status = 'pending'`,
  `CREATE INDEX reservation_requests_car_idx ON reservation_requests (car_id, execute_at)`,
  `CREATE TABLE notification_settings (
    account_id  text PRIMARY KEY REFERENCES accounts(account_id) ON DELETE CASCADE,
    email       text NOT NULL DEFAULT '',
    message_id  text NOT NULL DEFAULT '',
    items       jsonb NOT NULL DEFAULT '{}',
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE notification_events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(account_id) ON DELETE CASCADE,
    car_id      text NOT NULL,
    item        text NOT NULL,
    detail      jsonb NOT NULL DEFAULT '{}',
    outbox_id   bigint,
    at          timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX notification_events_cooldown_idx ON notification_events (account_id, car_id, item, at)`,
  `CREATE TABLE mail_outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    to_addr         text NOT NULL,
    subject         text NOT NULL,
    body            text NOT NULL,
    kind            text NOT NULL DEFAULT 'notification',
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX mail_outbox_pending_idx ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL`,
  `CREATE TABLE password_reset_tokens (
    token_hash  text PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts(account_id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
  )`,
  `CREATE TABLE audit_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    account_id  text,
    action      text NOT NULL,
    target_type text NOT NULL,
    target_id   text NOT NULL,
    detail      jsonb NOT NULL DEFAULT '{}'
  )`,
  `CREATE INDEX audit_log_at_idx ON audit_log (at)`,
  `CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, at)`,
  // Telemetry: append-only, "one terminal, a time range".
  `CREATE TABLE device_batches (
    car_data_id text NOT NULL,
    seq         bigint NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    accepted    integer NOT NULL,
    rejected    jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (car_data_id, seq)
  )`,
  `CREATE TABLE gps_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    lat         double precision NOT NULL,
    lng         double precision NOT NULL,
    speed       real,
    heading     real,
    satellites  smallint,
    accuracy    real
  )`,
  `CREATE INDEX gps_logs_device_time_idx ON gps_logs (car_data_id, recorded_at)`,
  `CREATE TABLE engine_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    running     text,
    engine_line text,
    command     smallint,
    command_id  bigint,
    account_id  text
  )`,
  `CREATE INDEX engine_logs_device_time_idx ON engine_logs (car_data_id, recorded_at)`,
  `CREATE TABLE connection_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    state       text NOT NULL
  )`,
  `CREATE INDEX connection_logs_device_time_idx ON connection_logs (car_data_id, recorded_at)`,
  `CREATE TABLE battery_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    voltage     real,
    percentage  real
  )`,
  `CREATE INDEX battery_logs_device_time_idx ON battery_logs (car_data_id, recorded_at)`,
  `CREATE TABLE sensor_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    vibration   real,
    readings    jsonb NOT NULL DEFAULT '{}'
  )`,
  `CREATE INDEX sensor_logs_device_time_idx ON sensor_logs (car_data_id, recorded_at)`,
  `CREATE TABLE obd2_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    pids        jsonb NOT NULL DEFAULT '{}'
  )`,
  `CREATE INDEX obd2_logs_device_time_idx ON obd2_logs (car_data_id, recorded_at)`,
  `CREATE TABLE error_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    recorded_at timestamptz NOT NULL,
    error_type  text NOT NULL CHECK (error_type IN ('engine', 'gps', 'obd2', 'sensor')),
    status_code integer NOT NULL,
    detail      text NOT NULL DEFAULT ''
  )`,
  `CREATE INDEX error_logs_device_time_idx ON error_logs (car_data_id, recorded_at)`,
  `CREATE TABLE device_latest_state (
    car_data_id        text PRIMARY KEY,
    recorded_at        timestamptz,
    lat                double precision,
    lng                double precision,
    speed              real,
    heading            real,
    engine_running     text,
    engine_line        text,
    connection         text,
    device_state       integer,
    battery_voltage    real,
    battery_percentage real,
    last_seen_at       timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
