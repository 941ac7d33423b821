import { chromium, type Browser, type Page } from '@playwright/test';
import { login } from './server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const STORE_KEY = 'fleet-console/session';

export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });

/** Signs in through the API and stores the session where the console keeps it (as e2e's loginAs). */
export async function signIn(page: Page, url: string) {
  const l = await login(url);
  await page.goto(`${url}/warning`);
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
    [STORE_KEY, l] as const,
  );
}

/** Resolves after two animation frames: what was rendered has been painted. */
export const painted = (page: Page) =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
