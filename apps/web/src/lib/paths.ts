/** Every URL of the console (docs/product.md §2). Nothing else writes route strings. */
export const paths = {
  login: '/',
  notify: '/notify',
  passwordResetRequest: '/password_reset',
  warning: '/warning',
  /** Ours (not in docs/product.md §2): the super admin's view of outgoing mail. */
  mailOutbox: '/notify/mail_outbox',
  /** Ours (docs/notifications.md "Webhooks"): an administrator's webhook receivers and their delivery log. */
  webhooks: '/notify/webhooks',
  webhookDeliveries: '/notify/webhook_deliveries',
  /** Ours (docs/notifications.md "Notification history"): what each notification became, for managers. */
  notifyHistory: '/notify/history',
  /** Ours: the super admin's audit log. */
  auditLog: '/audit_log',
  /** Ours (docs/trips.md): a company's trip and stop rule. */
  tripSettings: '/trip_settings',
  /** Ours: the alert inbox (docs/zones.md). */
  alerts: '/alerts',
  account: {
    add: '/account/account_add',
    list: '/account/account_list',
    passwordReset: '/account/password_reset',
    detail: (id = '') => `/account/account_detail/${enc(id)}`,
    edit: (id = '') => `/account/account_edit/${enc(id)}`,
  },
  car: {
    add: '/car/car_add',
    list: '/car/car_list',
    /** Ours (docs/console.md): every visible vehicle on one live map. */
    map: '/car/car_map',
    /** Ours (docs/trips.md): the fleet summary over a range, its files and the scheduled summary by mail. */
    report: '/car/car_report',
    /** Ours: the company's zone library (docs/zones.md). */
    zones: '/car/car_zones',
    /** Ours: the company's vehicle groups (docs/groups.md). */
    groups: '/car/car_groups',
    userAdd: '/car/car_user_add',
    wizard: '/car/car_user_device_add',
    userList: '/car/car_user_list',
    userDetail: (id = '') => `/car/car_user_detail/${enc(id)}`,
    userEdit: (id = '') => `/car/car_user_edit/${enc(id)}`,
    edit: (id = '') => `/car/car_edit/${enc(id)}`,
    logs: (dataId = '') => `/car/car_loges/${enc(dataId)}`,
    detail: (id = '', dataId = '') => join('/car/car_detail', id, dataId),
    engine: (id = '', dataId = '') => join('/car/car_engine', id, dataId),
    forbiddenArea: (id = '', dataId = '') => join('/car/car_forbidden_area', id, dataId),
    travelRoute: (id = '', dataId = '') => join('/car/car_travelroute', id, dataId),
    /** Ours (docs/trips.md): a vehicle's 運行日報 (`?date=YYYY-MM-DD`, a day in Japan). */
    dailyReport: (id = '', dataId = '') => join('/car/car_daily_report', id, dataId),
    /** Ours: a vehicle's timeline of events and its zones (docs/zones.md). */
    timeline: (id = '', dataId = '') => join('/car/car_timeline', id, dataId),
    warningArea: (id = '', dataId = '') => join('/car/car_warning_area', id, dataId),
  },
  device: {
    add: '/car/device/add',
    list: '/car/device/list',
    detail: (id = '') => `/car/device/detail/${enc(id)}`,
    edit: (id = '') => `/car/device/edit/${enc(id)}`,
  },
  company: {
    add: '/company/company_add',
    list: '/company/company_list',
    detail: (id = '') => `/company/company_detail/${enc(id)}`,
    edit: (id = '') => `/company/company_edit/${enc(id)}`,
  },
} as const;

function enc(id: string) {
  return encodeURIComponent(id);
}
function join(base: string, ...ids: string[]) {
  const parts = ids.filter(Boolean).map(enc);
  return [base, ...parts].join('/');
}
