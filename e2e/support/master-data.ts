import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './fixtures';

/** Ids unique to this run, so reruns against the same server and database do not collide. */
export const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
let seq = 0;
export const uniqueId = (prefix: string) => `${prefix}-${runId}-${(seq++).toString(36)}`;
/** A 15-digit IMEI no other run has used: '99' + 13 digits from the clock and a counter. */
export const uniqueImei = () => `99${String(Date.now() * 10 + (seq++ % 10)).slice(-13)}`;

/** A demo account's API: POST calls with its bearer token, for set-up and checks beside the browser. */
export async function apiAs(request: APIRequestContext, accountId: string) {
  const res = await request.post('/api/login', { data: { username: accountId, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  const call = async (path: string, data: unknown = {}) => {
    const r = await request.post(path, { data, headers: { authorization: `Bearer ${token}` } });
    return { status: r.status(), body: (await r.json().catch(() => null)) as Record<string, unknown> };
  };
  return {
    call,
    addCustomer: async (info: Record<string, unknown>) => {
      const r = await call('/api/user_add', { info: { company_id: 'tokyo-mobility', ...info } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
    /** An account of its own for a test, signing in with the demo password unless told otherwise. */
    addAccount: async (info: {
      account_id: string;
      name: string;
      role: number;
      company_id: string;
      email?: string;
    }) => {
      const r = await call('/api/account_add', {
        info: {
          email: `${info.account_id}@example.jp`,
          password: DEMO_PASSWORD,
          password_confirm: DEMO_PASSWORD,
          ...info,
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
    addDevice: async (info: Record<string, unknown>) => {
      const r = await call('/api/device_add', { info: { password: 'terminal-pass-1', ...info } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
  };
}

/** Picks an option of a Mantine Select by its label. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The body rows of the list table (the header row left out). */
export const bodyRows = (page: Page) => page.locator('table').first().locator('tbody tr');
