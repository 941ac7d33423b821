import { expect, loginAs, test } from '../support/fixtures';
import { bodyRows, uniqueId, uniqueImei } from '../support/master-data';

/** docs/device-protocol.md §10: a terminal that speaks OsmAnd (Traccar Client) is registered on the terminal screens and reports over HTTP. */
test('an OsmAnd terminal is registered with its protocol, shown in the list, and stores a Traccar Client fix', async ({
  page,
  request,
}) => {
  await loginAs(page, 'admin', '/car/device/add');
  const deviceId = uniqueId('D-osm');
  await page.getByRole('textbox', { name: '端末ID' }).fill(deviceId);
  await page.getByLabel('端末パスワード').fill('osmand-secret-1');
  const imei = uniqueImei();
  await page.getByRole('textbox', { name: 'IMEI' }).fill(imei);
  await page.getByRole('combobox', { name: '通信プロトコル' }).click();
  await page.getByRole('option', { name: 'OsmAnd（Traccar Client）' }).click();
  await expect(page.getByText('エンジン制御はできません')).toBeVisible();
  await page.getByRole('button', { name: '登録する' }).click();

  await expect(page).toHaveURL(new RegExp(`/car/device/detail/${deviceId}$`));
  const main = page.locator('main');
  await expect(main.getByText('OsmAnd（Traccar Client）')).toBeVisible();

  await page.goto('/car/device/list');
  await page.getByRole('combobox', { name: '検索項目' }).click();
  await page.getByRole('option', { name: 'IMEI' }).click();
  await page.getByLabel('検索キーワード').fill(imei);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page).first()).toContainText(deviceId);
  await expect(bodyRows(page).first()).toContainText('OsmAnd');

  // The Traccar Client's request: the password in the path, the IMEI as the device identifier.
  const timestamp = Math.floor(Date.now() / 1000);
  const fix = await request.get(
    `/device/osmand/osmand-secret-1?id=${imei}&lat=35.6812&lon=139.7671&timestamp=${timestamp}&speed=10`,
  );
  expect(fix.status()).toBe(200);
  expect((await request.get(`/device/osmand/wrong-secret?id=${imei}&lat=35&lon=139`)).status()).toBe(401);
  await page.goto(`/car/device/detail/${deviceId}`);
  await expect(main.getByText('OsmAnd（Traccar Client）')).toBeVisible();
});
