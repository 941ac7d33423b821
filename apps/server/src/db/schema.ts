import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { TerminalProtocol } from '@fleet/contract';

/** Row types of the migrations in ./migrations, kept beside them by hand. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type Flag = Generated<boolean>;

export interface CompaniesTable {
  company_id: string;
  company_name: string;
  name: Generated<string>;
  address: Generated<string>;
  phone: Generated<string>;
  email: Generated<string>;
  /** Every account of the company must sign in with TOTP (totp). */
  require_totp: Generated<boolean>;
  /** Alert when a TCP terminal logs in from a source address it has not used before. */
  alert_new_terminal_address: Generated<boolean>;
  is_delete: Flag;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface AccountsTable {
  account_id: string;
  name: string;
  email: string;
  role: number;
  company_id: string | null;
  /** The company's name, kept by triggers (list_sort_keys). */
  company_name: Generated<string | null>;
  /** Generated: the name's search key, list_search_key(name), and its bigrams (forgiving_search). */
  name_key: ColumnType<string, never, never>;
  name_key_bigrams: ColumnType<string[], never, never>;
  password_hash: string;
  /** エンジン制御権限; null: the role's default, on for roles 0-1 (engine_authority). */
  engine_control: Generated<boolean | null>;
  is_delete: Flag;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface SessionsTable {
  token_hash: string;
  account_id: string;
  created_at: Generated<Date>;
  last_seen_at: Timestamp;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  sel_account_id: string | null;
  sel_company_id: string | null;
  sel_car_id: string | null;
  sel_user_id: string | null;
  sel_data_id: string | null;
  sel_device_id: string | null;
  /** Until when a prohibit needs no new step-up (engine_authority). */
  stepped_up_until: Generated<Date | string | null>;
}

/** 二段階認証 of an account (totp): the pending secret until confirmed, then the secret. */
export interface AccountTotpTable {
  account_id: string;
  secret: string | null;
  pending_secret: string | null;
  enabled_at: Date | string | null;
  /** The time step (unix seconds / 30) of the last code accepted: a code is good once. */
  last_step: number | null;
  updated_at: Timestamp;
}

/** Recovery codes of 二段階認証: the SHA-256 of each, single use. */
export interface AccountTotpRecoveryCodesTable {
  account_id: string;
  code_hash: string;
  used_at: Date | string | null;
  created_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  ip: string;
  username: string;
  succeeded: boolean;
  at: Timestamp;
}

export interface CarUsersTable {
  user_id: string;
  company_id: string | null;
  first_name: Generated<string>;
  name: Generated<string>;
  work_postal: Generated<string>;
  work_state: Generated<string>;
  work_address: Generated<string>;
  work_address_sub: Generated<string>;
  work_phone: Generated<string>;
  merchant: Generated<string>;
  birthday: string | null;
  gender: number | null;
  user_postal: Generated<string>;
  user_state: Generated<string>;
  user_address: Generated<string>;
  user_address_sub: Generated<string>;
  payment_log: Generated<number>;
  state: Generated<number>;
  detail: Generated<string>;
  is_delete: Flag;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** first_name || ' ' || name, generated (list_sort_keys). */
  full_name: ColumnType<string, never, never>;
  /** Generated: the full name's search key, list_search_key(first_name || name), and its bigrams (forgiving_search). */
  full_name_key: ColumnType<string, never, never>;
  full_name_key_bigrams: ColumnType<string[], never, never>;
  /** The company's name, kept by triggers (list_sort_keys). */
  company_name: Generated<string | null>;
}

export interface DevicesTable {
  car_device_id: string;
  password_hash: string;
  ipaddr: Generated<string>;
  macaddr: Generated<string>;
  car_type: Generated<string>;
  car_data_id: string;
  is_delete: Flag;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** The live vehicle carrying the terminal, kept by triggers (list_sort_keys). */
  car_id: Generated<string | null>;
  /** 'json' | 'osmand' | 'teltonika' | 'gt06' (terminal_protocol). */
  protocol: Generated<TerminalProtocol>;
  /** Overrides of the immobiliser command text; '' = the protocol's default. */
  cmd_cut_text: Generated<string>;
  cmd_restore_text: Generated<string>;
}

export interface CarsTable {
  car_id: string;
  company_id: string | null;
  car_number: Generated<string>;
  car_type: Generated<string>;
  car_vin: Generated<string>;
  user_id: string | null;
  car_device_id: string | null;
  car_data_id: string | null;
  car_status: Generated<number>;
  lat_min: number | null;
  lat_max: number | null;
  lng_min: number | null;
  lng_max: number | null;
  is_delete: Flag;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** The customer's full name, merchant and payment delay and the company's name, kept by triggers (list_sort_keys). */
  user_name: Generated<string | null>;
  user_merchant: Generated<string | null>;
  user_payment_log: Generated<number | null>;
  company_name: Generated<string | null>;
  /** Generated: the search keys of the number and the customer's name and the name key's bigrams (forgiving_search). */
  car_number_key: ColumnType<string, never, never>;
  user_name_key: ColumnType<string | null, never, never>;
  user_name_key_bigrams: ColumnType<string[] | null, never, never>;
}

/** A stretch of time a live vehicle carried a terminal; written by a trigger on cars. */
export interface TerminalPeriodsTable {
  id: Generated<number>;
  car_id: string;
  car_data_id: string;
  company_id: string | null;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface AreasTable {
  id: Generated<number>;
  car_id: string;
  kind: 'available' | 'disable';
  position: Generated<number>;
  name: Generated<string>;
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
}

export interface AreaTemplatesTable {
  template_id: string;
  type: 'available' | 'disable';
  name: string;
  company_id: string | null;
  areas: Json<unknown>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ReservedCommandsTable {
  id: Generated<number>;
  car_data_id: string;
  cmd_idx: number;
  cmd_type: string;
  cmd_info: Json<Record<string, unknown>>;
  state: number;
  created_by: string | null;
  request_id: string | null;
  created_at: Generated<Date>;
  expires_at: Date | string | null;
  fetched_at: Date | string | null;
  result_at: Date | string | null;
  result: Json<unknown> | null;
  deleted_at: Date | string | null;
  /** Set with deleted_at: deleted in execWait, expired before a terminal fetched it, or cancelled by the server. */
  closed_reason: 'deleted' | 'expired' | 'cancelled' | null;
  /** The vehicle and company the command was made for (engine_authority). */
  car_id: Generated<string | null>;
  company_id: Generated<string | null>;
  /** Why the server cancelled it (closed_reason 'cancelled'). */
  cancel_reason: Generated<string | null>;
  /** The TCP link (source address, connected since) that first delivered it, and the one its answer came on. */
  sent_address: Generated<string | null>;
  sent_connected_at: Generated<Date | null>;
  answer_address: Generated<string | null>;
  answer_connected_at: Generated<Date | null>;
}

/** The live link of a Teltonika / GT06 terminal, whichever instance holds it (refreshed while open). */
export interface TerminalLinksTable {
  car_data_id: string;
  protocol: string;
  address: string;
  connected_at: Date | string;
  instance: string;
  seen_at: Date | string;
}

/** The source addresses a TCP terminal has logged in from. */
export interface TerminalAddressesTable {
  car_data_id: string;
  address: string;
  first_at: Generated<Date>;
  last_at: Generated<Date>;
}

export interface ReservedCommandEventsTable {
  id: Generated<number>;
  command_id: number;
  state: number;
  event: string;
  account_id: string | null;
  at: Timestamp;
  /** Why the server cancelled the command (event 'cancelled'). */
  reason: Generated<string | null>;
}

export interface ReservationRequestsTable {
  request_id: string;
  car_id: string;
  cmd: number;
  execute_at: Date | string;
  status: Generated<'pending' | 'fired' | 'cancelled' | 'failed'>;
  command_id: number | null;
  created_by: string | null;
  created_at: Generated<Date>;
  fired_at: Date | string | null;
  /** Why a failed request did not fire. */
  reason: string | null;
  cancelled_by: string | null;
  cancelled_at: Date | string | null;
  /** The company of the vehicle when the request was made (engine_authority). */
  company_id: Generated<string | null>;
}

export interface NotificationSettingsTable {
  account_id: string;
  email: Generated<string>;
  message_id: Generated<string>;
  items: Json<Record<string, { enable: boolean; param: number | null }>>;
  /** Per item: mail and/or push; an absent item goes by mail only (push). */
  channels: ColumnType<Record<string, { mail?: boolean; push?: boolean }>, string | undefined, string>;
  updated_at: Timestamp;
}

export interface NotificationEventsTable {
  id: Generated<number>;
  account_id: string;
  car_id: string;
  item: string;
  detail: Json<Record<string, unknown>>;
  outbox_id: number | null;
  at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_addr: string;
  subject: string;
  body: string;
  kind: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: Date | string | null;
  created_at: Generated<Date>;
}

export interface MailAttachmentsTable {
  id: Generated<number>;
  mail_id: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

export interface ReportSubscriptionsTable {
  account_id: string;
  daily: Generated<boolean>;
  monthly: Generated<boolean>;
  /** The super admin's choice of company; null: every company (or the account's own company). */
  company_id: string | null;
  /** The last period queued: 'YYYY-MM-DD' (a JST day) and 'YYYY-MM' (a JST month). */
  daily_sent_for: string | null;
  monthly_sent_for: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface WebhooksTable {
  id: Generated<number>;
  /** null: the super admin's receiver, told about every company. */
  company_id: string | null;
  url: string;
  secret: string;
  events: Json<string[]>;
  enabled: Generated<boolean>;
  description: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: string;
  event_type: string;
  body: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_status: number | null;
  last_error: string | null;
  sent_at: Date | string | null;
  created_at: Generated<Date>;
}

export interface PushVapidKeysTable {
  id: Generated<boolean>;
  public_key: string;
  private_key: string;
  created_at: Generated<Date>;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  account_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: Generated<string>;
  created_at: Generated<Date>;
}

export interface PushDeliveriesTable {
  id: Generated<number>;
  /** null once the subscription is gone (the row stays for the history). */
  subscription_id: number | null;
  account_id: string;
  endpoint: string;
  event_id: string;
  item: string;
  car_id: string;
  company_id: string | null;
  payload: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_status: number | null;
  last_error: string | null;
  sent_at: Date | string | null;
  /** Not retried any more: the push service removed the subscription, or it was unsubscribed. */
  gave_up: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface WebhookCursorsTable {
  name: string;
  last_id: number;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  account_id: string;
  created_at: Generated<Date>;
  expires_at: Date | string;
  used_at: Date | string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  account_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  detail: Json<Record<string, unknown>>;
}

export interface DeviceBatchesTable {
  car_data_id: string;
  seq: number;
  received_at: Timestamp;
  accepted: number;
  rejected: Json<unknown[]>;
}

interface LogBase {
  id: Generated<number>;
  car_data_id: string;
  recorded_at: Date | string;
}
export interface GpsLogsTable extends LogBase {
  lat: number;
  lng: number;
  speed: number | null;
  heading: number | null;
  satellites: number | null;
  accuracy: number | null;
}
export interface EngineLogsTable extends LogBase {
  running: string | null;
  engine_line: string | null;
  command: number | null;
  command_id: number | null;
  account_id: string | null;
}
export interface ConnectionLogsTable extends LogBase {
  state: string;
}
export interface BatteryLogsTable extends LogBase {
  voltage: number | null;
  percentage: number | null;
}
export interface SensorLogsTable extends LogBase {
  vibration: number | null;
  readings: Json<Record<string, unknown>>;
}
export interface Obd2LogsTable extends LogBase {
  pids: Json<Record<string, unknown>>;
}
export interface ErrorLogsTable extends LogBase {
  error_type: string;
  status_code: number;
  detail: Generated<string>;
}

export interface DeviceLatestStateTable {
  car_data_id: string;
  recorded_at: Date | string | null;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  heading: number | null;
  engine_running: string | null;
  engine_line: string | null;
  connection: string | null;
  device_state: number | null;
  battery_voltage: number | null;
  battery_percentage: number | null;
  last_seen_at: Timestamp;
  /** Time of the record each field group came from (monotonic updates). */
  position_at: Date | string | null;
  engine_running_at: Date | string | null;
  engine_line_at: Date | string | null;
  connection_at: Date | string | null;
  device_state_at: Date | string | null;
  battery_at: Date | string | null;
}

export interface LiveTicketsTable {
  ticket_hash: string;
  token_hash: string;
  expires_at: Date | string;
}

/** Per terminal: last movement and idling, for the notification sweep. */
export interface VehicleMotionTable {
  car_data_id: string;
  moved_at: Date | string;
  anchor_lat: number | null;
  anchor_lng: number | null;
  engine_running: string | null;
  idle_since: Date | string | null;
  last_record_at: Date | string;
}

export interface PasswordResetRequestsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  at: Timestamp;
}

/**
 * A change in the number of rows of a list's table (migration list_counts): the rows of `list` with this company,
 * role and deletion flag number the sum of their `n`. Written by triggers, summed again by the jobs (db/list-counts.ts).
 */
export interface ListCountsTable {
  list: 'cars' | 'car_users' | 'accounts' | 'devices';
  company_id: string | null;
  role: number | null;
  is_delete: boolean;
  /** bigint: a string from the driver. */
  n: string | number;
}

/** When a list table's search indexes were last rebuilt, and its rewritten rows then (db/search-indexes.ts). */
export interface SearchIndexUpkeepTable {
  table_name: string;
  /** bigint: a string from the driver. */
  rewrites: string | number;
  rebuilt_at: Generated<Date>;
}

/** A trip piece (migration trips; docs/trips.md): written by trips/ alone. */
export interface TripsTable {
  id: Generated<number>;
  car_data_id: string;
  start_at: Date | string;
  end_at: Date | string;
  start_lat: number;
  start_lng: number;
  end_lat: number;
  end_lng: number;
  start_address: string | null;
  end_address: string | null;
  distance_m: number;
  max_speed_kmh: number;
  /** Goes on from the piece before it (cut at midnight in Japan). */
  continued: Generated<boolean>;
  /** false: the newest, replaced at the detection's next run. */
  settled: Generated<boolean>;
}

export interface StopsTable {
  id: Generated<number>;
  car_data_id: string;
  start_at: Date | string;
  /** null while the vehicle still stands there */
  end_at: Date | string | null;
  last_at: Date | string;
  lat: number;
  lng: number;
  address: string | null;
  settled: Generated<boolean>;
}

/** How far the detection has read a terminal's positions, and its state there. */
export interface TripCursorsTable {
  car_data_id: string;
  /** bigint: a string from the driver. */
  through_id: string | number;
  through_at: Date | string;
  state: Json<unknown>;
  /** The terminal's period boundaries the state was computed with (epoch ms, comma-separated). */
  cuts: Generated<string>;
  updated_at: Generated<Date>;
}

export interface TripScanTable {
  id: Generated<number>;
  /** bigint: a string from the driver. */
  last_id: string | number;
  leased_until: Date | string | null;
}

/** Per terminal, day in Japan and vehicle: what the fleet summary adds up (migration trip_days). */
export interface TripDaysTable {
  car_data_id: string;
  day: Date | string;
  car_id: string;
  /** '' for a period without a company */
  company_id: string;
  distance_m: number;
  driving_s: number;
  trips: number;
  first_continued: boolean;
  stops: number;
  max_speed_kmh: number;
}

export interface TripSettingsTable {
  company_id: string;
  stop_min_s: number;
  stop_radius_m: number;
  stop_speed_kmh: number;
  trip_min_m: number;
  updated_at: Generated<Date>;
}

/** Addresses by cell of 1/10,000 degree, shared by every instance (migration geocode, docs/geocoding.md). */
export interface GeocodeCellsTable {
  cell_lat: number;
  cell_lng: number;
  state: Generated<'pending' | 'done' | 'failed'>;
  address: string | null;
  muni_cd: string | null;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  requested_at: Generated<Date>;
  looked_up_at: Date | string | null;
}

/** The deployment's one rate limit and back-off for the geocoder (one row). */
export interface GeocodeLimiterTable {
  id: Generated<number>;
  next_slot_at: Generated<Date>;
  failures: Generated<number>;
  paused_until: Generated<Date>;
}

/** Zones and the alert inbox (migration zones_alerts, docs/zones.md). */
export interface ZonesTable {
  zone_id: string;
  company_id: string;
  name: string;
  shape: 'circle' | 'polygon';
  color: string;
  lat: number | null;
  lng: number | null;
  radius_m: number | null;
  points: Json<{ lat: number; lng: number }[]> | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CarZonesTable {
  car_id: string;
  zone_id: string;
}

export interface GroupZonesTable {
  group_id: string;
  zone_id: string;
}

export interface CarZoneStatesTable {
  car_id: string;
  zone_id: string;
  inside: boolean;
  pending: Generated<number>;
  changed_at: Timestamp;
  since_lat: number;
  since_lng: number;
}

export interface ZoneVersionsTable {
  company_id: string;
  token: string;
}

export interface AlertsTable {
  alert_id: Generated<string>;
  dedupe_key: string;
  company_id: string | null;
  car_id: string;
  car_data_id: string | null;
  kind: string;
  what: string;
  zone_id: string | null;
  zone_name: string | null;
  lat: number | null;
  lng: number | null;
  happened_at: Timestamp;
  created_at: Generated<Date>;
  acked_at: Date | null;
  acked_by: string | null;
}

/** A company's vehicle group (拠点・部署, migration vehicle_groups). */
export interface VehicleGroupsTable {
  group_id: string;
  company_id: string;
  name: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CarGroupsTable {
  car_id: string;
  group_id: string;
}

/** An account limited to groups (a row: limited, even to none). */
export interface AccountGroupLimitsTable {
  account_id: string;
}

export interface AccountGroupsTable {
  account_id: string;
  group_id: string;
}

/** A vehicle group's notification settings (docs/notifications.md "Group settings"). */
export interface GroupNotifySettingsTable {
  group_id: string;
  items: Json<Record<string, { enable: boolean; param: number | null }>>;
  channels: ColumnType<Record<string, { mail?: boolean; push?: boolean }>, string | undefined, string>;
  updated_at: Generated<Date>;
}

export interface GroupNotifyRecipientsTable {
  group_id: string;
  account_id: string;
}

export interface DB {
  vehicle_groups: VehicleGroupsTable;
  group_notify_settings: GroupNotifySettingsTable;
  group_notify_recipients: GroupNotifyRecipientsTable;
  car_groups: CarGroupsTable;
  account_group_limits: AccountGroupLimitsTable;
  account_groups: AccountGroupsTable;
  companies: CompaniesTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  account_totp: AccountTotpTable;
  account_totp_recovery_codes: AccountTotpRecoveryCodesTable;
  car_users: CarUsersTable;
  devices: DevicesTable;
  cars: CarsTable;
  terminal_periods: TerminalPeriodsTable;
  areas: AreasTable;
  area_templates: AreaTemplatesTable;
  reserved_commands: ReservedCommandsTable;
  reserved_command_events: ReservedCommandEventsTable;
  terminal_links: TerminalLinksTable;
  terminal_addresses: TerminalAddressesTable;
  reservation_requests: ReservationRequestsTable;
  notification_settings: NotificationSettingsTable;
  notification_events: NotificationEventsTable;
  mail_outbox: MailOutboxTable;
  mail_attachments: MailAttachmentsTable;
  report_subscriptions: ReportSubscriptionsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_cursors: WebhookCursorsTable;
  push_vapid_keys: PushVapidKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
  password_reset_tokens: PasswordResetTokensTable;
  audit_log: AuditLogTable;
  device_batches: DeviceBatchesTable;
  gps_logs: GpsLogsTable;
  engine_logs: EngineLogsTable;
  connection_logs: ConnectionLogsTable;
  battery_logs: BatteryLogsTable;
  sensor_logs: SensorLogsTable;
  obd2_logs: Obd2LogsTable;
  error_logs: ErrorLogsTable;
  device_latest_state: DeviceLatestStateTable;
  live_tickets: LiveTicketsTable;
  vehicle_motion: VehicleMotionTable;
  password_reset_requests: PasswordResetRequestsTable;
  list_counts: ListCountsTable;
  search_index_upkeep: SearchIndexUpkeepTable;
  trips: TripsTable;
  stops: StopsTable;
  trip_cursors: TripCursorsTable;
  trip_scan: TripScanTable;
  trip_settings: TripSettingsTable;
  trip_days: TripDaysTable;
  geocode_cells: GeocodeCellsTable;
  geocode_limiter: GeocodeLimiterTable;
  zones: ZonesTable;
  car_zones: CarZonesTable;
  group_zones: GroupZonesTable;
  car_zone_states: CarZoneStatesTable;
  zone_versions: ZoneVersionsTable;
  alerts: AlertsTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
