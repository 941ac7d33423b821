import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, drive, sendBatch } from '../support/terminal';

test('the vehicle list searches, sorts, and keeps its query across navigation and reload', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_list');
  await expect(page.getByTestId('list-range')).toContainText('全20件');
  await page.getByRole('combobox', { name: '検索項目' }).click();
  await page.getByRole('option', { name: '車両番号' }).click();
  await page.getByLabel('検索キーワード').fill('品川');
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page.getByTestId('list-range')).toContainText('全2件');
  await expect(page.getByRole('row')).toHaveCount(3);

  await page.getByRole('button', { name: /車両番号/ }).click();
  await page.getByRole('button', { name: /車両番号/ }).click();
  await expect(page.getByRole('columnheader', { name: /車両番号/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: /車両番号/ })).toContainText('▼');

  await page.getByRole('link', { name: '顧客一覧', exact: true }).click();
  await page.getByRole('link', { name: '車両一覧', exact: true }).click();
  await expect(page.getByLabel('検索キーワード')).toHaveValue('品川');
  await page.reload();
  await expect(page.getByTestId('list-range')).toContainText('全2件');
  await expect(page.getByRole('columnheader', { name: /車両番号/ })).toHaveAttribute('aria-sort', 'descending');
});

test('a company user sees only the vehicles of their company', async ({ page }) => {
  await loginAs(page, 'tokyo-staff', '/car/car_list');
  await expect(page.getByTestId('list-range')).toContainText('全16件');
  await expect(page.getByRole('link', { name: 'C000013' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'C000001' })).toBeVisible();
  await expect(page.getByRole('button', { name: '車両登録' })).toHaveCount(0);
});

test('the vehicle detail shows the latest state and follows new reports without a reload', async ({ page }) => {
  const t = demoTerminal(1);
  await sendBatch(page.request, t, drive(new Date(Date.now() - 10 * 60_000), 5, 'on'));
  // Other specs (the fleet map) report for this demo terminal too: the state under test is the newest.
  const now = new Date().toISOString();
  await sendBatch(page.request, t, [
    { type: 'engine', time: now, running: 'on', engine_line: 'connected' },
    { type: 'connection', time: now, state: 'connected' },
  ]);
  await loginAs(page, 'tokyo-manager', `/car/car_detail/${t.car_id}/${t.imei}`);
  await expect(page.getByRole('heading', { name: '車両詳細' })).toBeVisible();
  await expect(page.getByText('走行中')).toBeVisible();
  await expect(page.getByText('接続中')).toBeVisible();
  await expect(page.getByTestId('map')).toBeVisible();

  await sendBatch(page.request, t, [{ type: 'engine', time: new Date().toISOString(), running: 'off' }]);
  await expect(page.getByText('停止中')).toBeVisible({ timeout: 15_000 });
});

test('another company cannot open a vehicle by its URL', async ({ page }) => {
  await loginAs(page, 'kanagawa-admin');
  await page.goto(`/car/car_detail/${demoTerminal(1).car_id}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText('走行中')).toHaveCount(0);
});
