/**
 * The fixture world of the API tests: two companies, every kind of account,
 * and one customer, terminal and car per company. Plain data, no imports, so
 * globalSetup can use it too.
 */
export const FIXTURE_PASSWORD = 'fixture-pass-2026';

export const companyA = 'company-a';
export const companyB = 'company-b';

export const accounts = {
  superAdmin: { account_id: 'super-admin', name: '本部 太郎', email: 'super@example.jp', role: 0, company_id: null },
  adminA: { account_id: 'admin-a', name: '加盟 一郎', email: 'admin-a@example.jp', role: 0, company_id: companyA },
  managerA: {
    account_id: 'manager-a',
    name: '管理 花子',
    email: 'manager-a@example.jp',
    role: 1,
    company_id: companyA,
  },
  staffA: { account_id: 'staff-a', name: '一般 次郎', email: 'staff-a@example.jp', role: 2, company_id: companyA },
  adminB: { account_id: 'admin-b', name: '別社 三郎', email: 'admin-b@example.jp', role: 0, company_id: companyB },
} as const;
export type FixtureAccount = keyof typeof accounts;

/** One customer, terminal and car per company; the ids say which. */
export const fleet = {
  A: {
    user_id: 'user-a',
    car_device_id: 'device-a',
    car_data_id: '358409100000001',
    car_id: 'car-a',
    company_id: companyA,
  },
  B: {
    user_id: 'user-b',
    car_device_id: 'device-b',
    car_data_id: '358409100000002',
    car_id: 'car-b',
    company_id: companyB,
  },
} as const;
