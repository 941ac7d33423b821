import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, choose, runId, uniqueId, uniqueImei } from '../support/master-data';

const DEMO_IMEI = '358409101000000';

/** Fills the three input steps; returns the ids the wizard will register. */
async function fillWizard(page: Page, imei: string) {
  const userId = uniqueId('U-wiz');
  const deviceId = uniqueId('D-wiz');
  await page.goto('/car/car_user_device_add');
  await expect(page.getByRole('heading', { name: '新規登録ウィザード' })).toBeVisible();

  // Step 1: the customer; nothing moves on until the contract's customer form passes.
  await page.getByRole('textbox', { name: '顧客ID' }).fill(userId);
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(2);
  await page.getByRole('textbox', { name: '姓' }).fill('一括');
  await page.getByRole('textbox', { name: '名', exact: true }).fill(`登録${runId}`);
  await choose(page, '所属会社', '株式会社東京モビリティサービス（tokyo-mobility）');
  await page.getByRole('button', { name: '次へ' }).click();

  // Step 2: the terminal.
  await page.getByRole('textbox', { name: '端末ID' }).fill(deviceId);
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(2);
  await page.getByRole('button', { name: 'パスワードを生成' }).click();
  await page.getByRole('textbox', { name: 'IMEI' }).fill(imei);
  await page.getByRole('button', { name: '次へ' }).click();

  // Step 3: the vehicle.
  const carId = await page.getByRole('textbox', { name: '車両ID' }).inputValue();
  expect(carId).not.toBe('');
  await page.getByRole('textbox', { name: '車両番号' }).fill(`横浜 300 わ ${runId.slice(-4)}`);
  await page.getByRole('textbox', { name: '車種' }).fill('一括テスト車');
  await page.getByRole('button', { name: '次へ' }).click();
  return { userId, deviceId, carId };
}

test('the wizard registers a customer, a terminal and a vehicle together', async ({ page, request }) => {
  await loginAs(page, 'admin');
  const imei = uniqueImei();
  const { userId, deviceId, carId } = await fillWizard(page, imei);

  // Step 4: confirm what will be registered; going back keeps the input.
  await expect(page.getByText(`一括 登録${runId}`)).toBeVisible();
  await expect(page.getByText(imei)).toBeVisible();
  await page.getByRole('button', { name: 'GPS端末を修正' }).click();
  await expect(page.getByRole('textbox', { name: 'IMEI' })).toHaveValue(imei);
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: 'この内容で登録する' }).click();

  // Step 5: done, with links to all three.
  await expect(page.getByRole('status')).toContainText('登録が完了しました');
  await expect(page.getByRole('link', { name: '車両詳細へ' })).toHaveAttribute(
    'href',
    `/car/car_detail/${carId}/${imei}`,
  );
  await expect(page.getByRole('link', { name: 'GPS端末詳細へ' })).toHaveAttribute(
    'href',
    `/car/device/detail/${deviceId}`,
  );
  await page.getByRole('link', { name: '顧客詳細へ' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_user_detail/${userId}$`));
  await expect(page.getByRole('link', { name: carId })).toBeVisible();

  const api = await apiAs(request, 'admin');
  const car = await api.call('/api/car_get_detail', { car_id: carId });
  expect(car.body).toMatchObject({
    user_id: userId,
    car_device_id: deviceId,
    car_data_id: imei,
    company_id: 'tokyo-mobility',
  });
});

test('the terminal step refuses an IMEI already registered before going on (#15.14)', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_user_device_add');
  await page.getByRole('textbox', { name: '姓' }).fill('早期');
  await page.getByRole('textbox', { name: '名', exact: true }).fill(`確認${runId}`);
  await choose(page, '所属会社', '株式会社東京モビリティサービス（tokyo-mobility）');
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: 'パスワードを生成' }).click();
  await page.getByRole('textbox', { name: 'IMEI' }).fill(DEMO_IMEI);
  await page.getByRole('button', { name: '次へ' }).click();
  // Still on the terminal step, the message under the IMEI field; the vehicle step never opened.
  await expect(page.getByText('入力されたIMEIは既に使用されています。')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'IMEI' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('textbox', { name: '車両番号' })).toHaveCount(0);
  // A free IMEI goes on.
  await page.getByRole('textbox', { name: 'IMEI' }).fill(uniqueImei());
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByRole('textbox', { name: '車両番号' })).toBeVisible();
});

test('a refused wizard goes back to the failing step and registers nothing', async ({ page, request }) => {
  await loginAs(page, 'admin');
  const api = await apiAs(request, 'admin');
  const taken = uniqueImei();
  const { userId, deviceId, carId } = await fillWizard(page, taken);
  // Someone registers the same IMEI meanwhile: the server refuses at the end.
  await api.addDevice({ car_device_id: uniqueId('D-race'), car_data_id: taken });
  await page.getByRole('button', { name: 'この内容で登録する' }).click();

  // Back on the terminal step, the server's message under the IMEI field.
  await expect(page.getByRole('alert')).toHaveText(
    '登録に失敗しました。入力内容を確認してください（何も登録されていません）。',
  );
  await expect(page.getByRole('textbox', { name: 'IMEI' })).toHaveValue(taken);
  await expect(page.getByText('入力されたIMEIは既に使用されています。')).toBeVisible();

  expect((await api.call('/api/user_exist_check', { check_item: 'user_id', check_value: userId })).body).toEqual({
    isExist: false,
  });
  expect(
    (await api.call('/api/device_exist_check', { check_item: 'car_device_id', check_value: deviceId })).body,
  ).toEqual({
    isExist: false,
  });
  expect((await api.call('/api/car_get_detail', { car_id: carId })).status).toBe(404);

  // Fixing the IMEI lets the same input through.
  const imei = uniqueImei();
  await page.getByRole('textbox', { name: 'IMEI' }).fill(imei);
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: 'この内容で登録する' }).click();
  await expect(page.getByRole('status')).toContainText('登録が完了しました');
  expect((await api.call('/api/user_exist_check', { check_item: 'user_id', check_value: userId })).body).toEqual({
    isExist: true,
  });
});
