import type { Migration } from 'kysely';
import * as initialSchema from './2026_11_23_000000_initial_schema.js';
import * as telemetryStateTimes from './2026_11_24_120000_telemetry_state_times.js';
import * as notificationsAndPasswordReset from './2026_11_24_130000_notifications_and_password_reset.js';
import * as engineControlOutcomes from './2026_11_25_090000_engine_control_outcomes.js';
import * as deviceBatchRetention from './2026_11_25_120000_device_batch_retention.js';
import * as listSortIndexes from './2026_11_26_100000_list_sort_indexes.js';
import * as listSearchTrigram from './2026_11_26_110000_list_search_trigram.js';
import * as listSortKeys from './2026_11_27_090000_list_sort_keys.js';
import * as terminalPeriods from './2026_11_27_090000_terminal_periods.js';
import * as listLiveIdIndexes from './2026_11_27_110000_list_live_id_indexes.js';
import * as forgivingSearch from './2026_12_27_090000_forgiving_search.js';
import * as groupZones from './2026_12_28_100000_group_zones.js';
import * as listSearchBigrams from './2026_11_27_120000_list_search_bigrams.js';
import * as listSortDescIndexes from './2026_11_27_130000_list_sort_desc_indexes.js';
import * as listDeviceCarDescIndex from './2026_11_27_140000_list_device_car_desc_index.js';
import * as engineAuthority from './2026_12_01_090000_engine_authority.js';
import * as totp from './2026_12_02_100000_totp.js';
import * as deviceStateReported from './2026_12_03_090000_device_state_reported.js';
import * as terminalProtocol from './2026_12_05_090000_terminal_protocol.js';
import * as webhooks from './2026_12_06_120000_webhooks.js';
import * as push from './2026_12_07_090000_push.js';
import * as telemetryPartitions from './2026_12_08_090000_telemetry_partitions.js';
import * as sessionChangeSignals from './2026_12_09_090000_session_change_signals.js';
import * as telemetryMinuteIndex from './2026_12_10_090000_telemetry_minute_index.js';
import * as terminalChangeSignals from './2026_12_11_090000_terminal_change_signals.js';
import * as heldEventOnce from './2026_12_12_090000_held_event_once.js';
import * as logPageOrderIndex from './2026_12_13_090000_log_page_order_index.js';
import * as ginWithoutPendingList from './2026_12_14_090000_gin_without_pending_list.js';
import * as masterDataAutovacuum from './2026_12_15_090000_master_data_autovacuum.js';
import * as listCounts from './2026_12_16_090000_list_counts.js';
import * as searchIndexUpkeep from './2026_12_17_090000_search_index_upkeep.js';
import * as deliveryErrorCategories from './2026_12_18_100000_delivery_error_categories.js';
import * as totpRecoveryCodes from './2026_12_18_300000_totp_recovery_codes.js';
import * as terminalLinks from './2026_12_18_400000_terminal_links.js';
import * as terminalSignalSources from './2026_12_18_500000_terminal_signal_sources.js';
import * as trips from './2026_12_19_100000_trips.js';
import * as terminalPeriodsCarIndex from './2026_12_19_110000_terminal_periods_car_index.js';
import * as tripDays from './2026_12_19_120000_trip_days.js';
import * as reportSubscriptions from './2026_12_19_200000_report_subscriptions.js';
import * as accountRights from './2026_12_21_090000_account_rights.js';
import * as geocode from './2026_12_23_090000_geocode.js';
import * as terminalProtocolsMore from './2026_12_24_090000_terminal_protocols_more.js';
import * as zonesAlerts from './2026_12_25_090000_zones_alerts.js';
import * as vehicleGroups from './2026_12_26_090000_vehicle_groups.js';
import * as groupNotifyAlertSignals from './2026_12_28_200000_group_notify_alert_signals.js';
import * as cancelReasonCodes from './2026_12_28_500000_cancel_reason_codes.js';
import * as alertSignalPerStatement from './2026_12_29_090000_alert_signal_per_statement.js';
import * as alertsWithoutCarLock from './2026_12_29_100000_alerts_without_car_lock.js';

/** Every migration, in order. Forward only: there are no down migrations. */
export const migrations: Record<string, Migration> = {
  '2026_11_23_000000_initial_schema': initialSchema,
  '2026_11_24_120000_telemetry_state_times': telemetryStateTimes,
  '2026_11_24_130000_notifications_and_password_reset': notificationsAndPasswordReset,
  '2026_11_25_090000_engine_control_outcomes': engineControlOutcomes,
  '2026_11_25_120000_device_batch_retention': deviceBatchRetention,
  '2026_11_26_100000_list_sort_indexes': listSortIndexes,
  '2026_11_26_110000_list_search_trigram': listSearchTrigram,
  '2026_11_27_090000_list_sort_keys': listSortKeys,
  '2026_11_27_090000_terminal_periods': terminalPeriods,
  '2026_11_27_110000_list_live_id_indexes': listLiveIdIndexes,
  '2026_11_27_120000_list_search_bigrams': listSearchBigrams,
  '2026_11_27_130000_list_sort_desc_indexes': listSortDescIndexes,
  '2026_11_27_140000_list_device_car_desc_index': listDeviceCarDescIndex,
  '2026_12_01_090000_engine_authority': engineAuthority,
  '2026_12_02_100000_totp': totp,
  '2026_12_03_090000_device_state_reported': deviceStateReported,
  '2026_12_05_090000_terminal_protocol': terminalProtocol,
  '2026_12_06_120000_webhooks': webhooks,
  '2026_12_07_090000_push': push,
  '2026_12_08_090000_telemetry_partitions': telemetryPartitions,
  '2026_12_09_090000_session_change_signals': sessionChangeSignals,
  '2026_12_10_090000_telemetry_minute_index': telemetryMinuteIndex,
  '2026_12_11_090000_terminal_change_signals': terminalChangeSignals,
  '2026_12_12_090000_held_event_once': heldEventOnce,
  '2026_12_13_090000_log_page_order_index': logPageOrderIndex,
  '2026_12_14_090000_gin_without_pending_list': ginWithoutPendingList,
  '2026_12_15_090000_master_data_autovacuum': masterDataAutovacuum,
  '2026_12_16_090000_list_counts': listCounts,
  '2026_12_17_090000_search_index_upkeep': searchIndexUpkeep,
  '2026_12_18_100000_delivery_error_categories': deliveryErrorCategories,
  '2026_12_18_300000_totp_recovery_codes': totpRecoveryCodes,
  '2026_12_18_400000_terminal_links': terminalLinks,
  '2026_12_18_500000_terminal_signal_sources': terminalSignalSources,
  '2026_12_19_100000_trips': trips,
  '2026_12_19_110000_terminal_periods_car_index': terminalPeriodsCarIndex,
  '2026_12_19_120000_trip_days': tripDays,
  '2026_12_19_200000_report_subscriptions': reportSubscriptions,
  '2026_12_21_090000_account_rights': accountRights,
  '2026_12_23_090000_geocode': geocode,
  '2026_12_24_090000_terminal_protocols_more': terminalProtocolsMore,
  '2026_12_25_090000_zones_alerts': zonesAlerts,
  '2026_12_26_090000_vehicle_groups': vehicleGroups,
  '2026_12_27_090000_forgiving_search': forgivingSearch,
  '2026_12_28_100000_group_zones': groupZones,
  '2026_12_28_200000_group_notify_alert_signals': groupNotifyAlertSignals,
  '2026_12_28_500000_cancel_reason_codes': cancelReasonCodes,
  '2026_12_29_090000_alert_signal_per_statement': alertSignalPerStatement,
  '2026_12_29_100000_alerts_without_car_lock': alertsWithoutCarLock,
};
