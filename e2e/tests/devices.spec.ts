import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, bodyRows, uniqueId, uniqueImei } from '../support/master-data';

const DEMO_IMEI = '358409101000000';
const IMEI_IN_USE = '入力されたIMEIは既に使用されています。';

test('a GPS terminal is registered with a generated id and password, then edited', async ({ page }) => {
  await loginAs(page, 'admin', '/car/device/list');
  await expect(page.getByRole('heading', { name: 'GPS端末一覧' })).toBeVisible();
  await page.getByRole('link', { name: 'GPS端末登録' }).first().click();
  await expect(page).toHaveURL(/\/car\/device\/add$/);

  const idField = page.getByRole('textbox', { name: '端末ID' });
  await expect(idField).toHaveValue(/^[A-Za-z0-9_-]{8,16}$/);
  const deviceId = uniqueId('D-add');
  await idField.fill(deviceId);

  const password = page.getByLabel('端末パスワード');
  await page.getByRole('button', { name: 'パスワードを生成' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(password).toHaveValue(/^[A-Za-z0-9]{16}$/);

  const imeiField = page.getByRole('textbox', { name: 'IMEI' });
  await imeiField.fill('12345');
  await page.getByRole('textbox', { name: 'IPアドレス' }).fill('10.99.0.1');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('IMEIは15桁の数字で入力してください')).toBeVisible();

  const imei = uniqueImei();
  await imeiField.fill(imei);
  await page.getByRole('textbox', { name: '車種' }).fill('E2E テスト車');
  await page.getByRole('textbox', { name: 'MACアドレス' }).fill('02:1A:7F:AA:BB:CC');
  await page.getByRole('button', { name: '登録する' }).click();

  await expect(page).toHaveURL(new RegExp(`/car/device/detail/${deviceId}$`));
  const main = page.locator('main');
  await expect(main.getByText(`${deviceId}（IMEI ${imei}）`)).toBeVisible();
  await expect(main.getByText('10.99.0.1')).toBeVisible();
  await expect(main.getByText('未登録')).toBeVisible();

  await page.getByRole('link', { name: '編集' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/device/edit/${deviceId}$`));
  await expect(page.getByLabel('端末パスワード')).toHaveValue('');
  await page.getByRole('textbox', { name: 'IPアドレス' }).fill('10.99.0.2');
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/device/detail/${deviceId}$`));
  await expect(main.getByText('10.99.0.2')).toBeVisible();

  // The list finds it by IMEI (search item 3).
  await page.goto('/car/device/list');
  await page.getByRole('combobox', { name: '検索項目' }).click();
  await page.getByRole('option', { name: 'IMEI' }).click();
  await page.getByLabel('検索キーワード').fill(imei);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page).first()).toContainText(deviceId);
});

test('an IMEI already registered is refused under the IMEI field', async ({ page, request }) => {
  await loginAs(page, 'admin', '/car/device/add');
  await page.getByRole('textbox', { name: '端末ID' }).fill(uniqueId('D-dup'));
  await page.getByLabel('端末パスワード').fill('terminal-pass-1');
  await page.getByRole('textbox', { name: 'IMEI' }).fill(DEMO_IMEI);
  await page.getByRole('button', { name: '登録する' }).click();
  const imeiInput = page.getByRole('textbox', { name: 'IMEI' });
  await expect(imeiInput).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(IMEI_IN_USE)).toBeVisible();
  await expect(page).toHaveURL(/\/car\/device\/add$/);
  // Nothing was stored under the refused id.
  const api = await apiAs(request, 'admin');
  const count = await api.call('/api/device_list_count', { search_item: '3', search_text: DEMO_IMEI, isDelete: true });
  expect(count.body.count).toBe(1);
});

test('terminal screens are for the super admin only', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', '/car/device/list');
  await expect(page.getByRole('alert')).toHaveText('この操作を行う権限がありません。');
  await page.goto('/car/device/add');
  await expect(page.getByRole('alert')).toHaveText('この操作を行う権限がありません。');
});
