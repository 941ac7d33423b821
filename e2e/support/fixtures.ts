import { test as base, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'fleet-demo-2026';
export const STORE_KEY = 'fleet-console/session';

/**
 * Signs in through the API and opens `landing` (the vehicle list unless said) signed in, as the login form
 * would. The session is written into the store on the session-invalid page, the one page of the console
 * that reads no session.
 */
export async function loginAs(page: Page, accountId: string, landing = '/car/car_list') {
  const res = await page.request.post('/api/login', { data: { username: accountId, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  const login = (await res.json()) as {
    id: string;
    username: string;
    role: number;
    token: string;
    company_id: string | null;
  };
  await page.goto('/warning');
  await page.evaluate(
    ([key, l]) => {
      const state = {
        authUser: l.id,
        account_id: l.id,
        name: l.username,
        role: l.role,
        token: l.token,
        company_id: l.company_id,
        isMenuActive: true,
        car_id: null,
        user_id: null,
        car_data_id: null,
        car_device_id: null,
        companies: [],
      };
      localStorage.setItem(key, JSON.stringify({ state, version: 1 }));
    },
    [STORE_KEY, login] as const,
  );
  await page.goto(landing);
  return login;
}

/** Logs in through the login form, as a person would. */
export async function loginWithForm(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/');
  await page.getByLabel('ログインID またはメールアドレス').fill(username);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

/** The server's URL comes from the global set-up, which starts it on a free port. */
export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});
export { expect };
