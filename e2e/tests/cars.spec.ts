import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, runId, uniqueId, uniqueImei } from '../support/master-data';

test('a vehicle is registered with a customer and a terminal chosen in the pickers, then edited', async ({
  page,
  request,
}) => {
  const api = await apiAs(request, 'admin');
  const userId = uniqueId('U-car');
  const deviceId = uniqueId('D-car');
  const imei = uniqueImei();
  const carType = `ピッカー車種${runId}`;
  await api.addCustomer({ user_id: userId, first_name: 'ピッカー', name: `顧客${runId}` });
  await api.addDevice({ car_device_id: deviceId, car_data_id: imei, car_type: carType });

  await loginAs(page, 'admin', '/car/car_add');
  await expect(page.getByRole('heading', { name: '車両登録' })).toBeVisible();
  const carIdField = page.getByRole('textbox', { name: '車両ID' });
  await expect(carIdField).toHaveValue(/.+/);
  await expect(carIdField).toBeDisabled();
  const carId = await carIdField.inputValue();

  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(2);

  await page.getByRole('textbox', { name: '車両番号' }).fill(`品川 500 て ${runId.slice(-4)}`);

  // Customer picker: free customers only, searched by name (search item 1).
  await page.getByRole('button', { name: '顧客IDを選択' }).click();
  const userDialog = page.getByRole('dialog', { name: '顧客の選択' });
  await expect(userDialog.getByText('車両未登録の顧客のみ')).toBeVisible();
  await userDialog.getByRole('combobox', { name: '検索項目' }).click();
  await page.getByRole('option', { name: '顧客名' }).click();
  await userDialog.getByLabel('検索キーワード').fill(`顧客${runId}`);
  await userDialog.getByRole('button', { name: '検索', exact: true }).click();
  await expect(userDialog.locator('tbody tr')).toHaveCount(1);
  await userDialog.getByRole('button', { name: '選択', exact: true }).click();
  await expect(userDialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: '顧客ID' })).toHaveValue(`${userId}（ピッカー 顧客${runId}）`);

  // Terminal picker: free terminals only, searched by vehicle type (search item 4).
  await page.getByRole('button', { name: '端末IDを選択' }).click();
  const deviceDialog = page.getByRole('dialog', { name: 'GPS端末の選択' });
  await deviceDialog.getByRole('combobox', { name: '検索項目' }).click();
  await page.getByRole('option', { name: '車種' }).click();
  await deviceDialog.getByLabel('検索キーワード').fill(carType);
  await deviceDialog.getByRole('button', { name: '検索', exact: true }).click();
  await expect(deviceDialog.locator('tbody tr')).toHaveCount(1);
  await deviceDialog.locator('tbody tr').first().click();
  await expect(page.getByRole('textbox', { name: '端末ID' })).toHaveValue(`${deviceId}（IMEI ${imei}）`);
  // Searching inside a picker never submits the vehicle form around it.
  await expect(page).toHaveURL(/\/car\/car_add$/);
  // The terminal's vehicle type fills an empty 車種.
  await expect(page.getByRole('textbox', { name: '車種' })).toHaveValue(carType);

  // A partial available area is refused per field.
  await page.getByRole('textbox', { name: '緯度（最小）' }).fill('35.5');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(3);
  await page.getByRole('textbox', { name: '緯度（最大）' }).fill('35.9');
  await page.getByRole('textbox', { name: '経度（最小）' }).fill('139.5');
  await page.getByRole('textbox', { name: '経度（最大）' }).fill('139.9');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_detail/${carId}`));

  const saved = await api.call('/api/car_get_detail', { car_id: carId });
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({
    user_id: userId,
    car_device_id: deviceId,
    car_data_id: imei,
    car_type: carType,
    available_data: { lat_min: 35.5, lat_max: 35.9, lng_min: 139.5, lng_max: 139.9 },
  });

  // Both are taken now: the pickers no longer offer them.
  await page.goto('/car/car_add');
  await page.getByRole('button', { name: '顧客IDを選択' }).click();
  const again = page.getByRole('dialog', { name: '顧客の選択' });
  await again.getByLabel('検索キーワード').fill(userId);
  await again.getByRole('button', { name: '検索', exact: true }).click();
  await expect(again.getByText('検索条件に一致するデータがありません。')).toBeVisible();

  // The customer's detail lists the vehicle.
  await page.goto(`/car/car_user_detail/${userId}`);
  await expect(page.getByRole('link', { name: carId })).toHaveAttribute('href', `/car/car_detail/${carId}/${imei}`);

  // A manager of the company edits it; the terminal is fixed for them.
  await loginAs(page, 'tokyo-manager', `/car/car_edit/${carId}`);
  await expect(page.getByRole('textbox', { name: '顧客ID' })).toHaveValue(`${userId}（ピッカー 顧客${runId}）`);
  await expect(page.getByRole('textbox', { name: '端末ID' })).toBeDisabled();
  await expect(page.getByText('端末の変更はスーパー管理者のみ行えます。')).toBeVisible();
  await page.getByRole('textbox', { name: '車台番号' }).fill('ZVW30-9999999');
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_detail/${carId}`));
  const edited = await api.call('/api/car_get_detail', { car_id: carId });
  expect(edited.body).toMatchObject({ car_vin: 'ZVW30-9999999', user_id: userId, car_device_id: deviceId });
});
