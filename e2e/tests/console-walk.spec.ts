import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { apiAs } from '../support/master-data';
import { demoTerminal } from '../support/terminal';

/** The operator walk's findings at the desk (1366×768), and forgiving search in the browser. */
const desk = { width: 1366, height: 768 };
const shot = (name: string) => `../docs/screenshots/${name}.png`;

/** The page itself never scrolls sideways. */
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the vehicle list finds 練馬 301 い 14-25 and 佐藤 花子 however they are typed', async ({ page }) => {
  await page.setViewportSize(desk);
  await loginAs(page, 'admin');
  const search = async (item: string, words: string) => {
    await page.getByRole('combobox', { name: '検索項目' }).click();
    await page.getByRole('option', { name: item, exact: true }).click();
    await page.getByLabel('検索キーワード').fill(words);
    await page.getByRole('button', { name: '検索', exact: true }).click();
  };
  for (const words of ['３０１', '練馬301', '1425']) {
    await search('車両番号', words);
    await expect(page.getByRole('row', { name: /C000002/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /C000001\b/ })).toHaveCount(0);
  }
  await search('顧客名', '佐藤花子');
  await expect(page.getByRole('row', { name: /C000002/ })).toBeVisible();
  expect(await noSideScroll(page)).toBe(true);
  await page.screenshot({ path: shot('car-list-1366x768-after') });
});

test('the engine screen shows コマンド履歴 whole at 1366', async ({ page }) => {
  await page.setViewportSize(desk);
  const t = demoTerminal(2);
  await loginAs(page, 'admin', `/car/car_engine/${t.car_id}/${t.imei}`);
  const history = page.getByRole('table', { name: 'コマンド履歴' });
  await expect(history).toBeVisible();
  const fits = await history.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth + 1);
  expect(fits).toBe(true);
  await expect(history.getByRole('columnheader', { name: '指示者' })).toBeVisible();
  await page.screenshot({ path: shot('car-engine-1366x768-after') });
});

test('操作履歴 reads in Japanese with Japan times', async ({ page }) => {
  const manager = await apiAs(page.request, 'tokyo-manager');
  expect((await manager.call('/api/car_status_update', { car_id: 'C000011', car_status: 2 })).status).toBe(200);
  await page.setViewportSize(desk);
  await loginAs(page, 'admin', '/audit_log');
  await page.getByRole('textbox', { name: '対象ID' }).fill('C000011');
  const row = page.getByRole('row', { name: /車両ステータス変更/ }).first();
  await expect(row).toContainText('車両ステータス: ');
  await expect(row).not.toContainText('{"');
  await page.screenshot({ path: shot('audit-1366x768-after') });
});
