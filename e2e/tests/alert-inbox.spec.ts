import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, choose, uniqueId, uniqueImei } from '../support/master-data';
import { sendBatch } from '../support/terminal';

/**
 * The alert inbox of a busy fleet (docs/zones.md "Alerts"): a vehicle of its own in a new group of
 * 株式会社東京モビリティサービス drives twice through a zone (two enters, two exits); an account limited
 * to the group (so its bell counts this vehicle alone) filters the inbox by kind and vehicle, picks the
 * two enters and acknowledges them at once: the bell drops by two. At a phone's width the screen stays usable.
 */
test.describe.configure({ mode: 'serial' });

const suffix = uniqueId('ib');
const manager = uniqueId('inbox');
const terminal = { car_device_id: uniqueId('D-ib'), password: 'terminal-pass-1', imei: uniqueImei() };
const carId = uniqueId('C-ib');
const carNumber = `横浜 301 い ${String(Date.now() % 100).padStart(2, '0')}-07`;

const badgeCount = async (page: Page) => Number(await page.getByTestId('alert-badge').getAttribute('data-count'));

/** A drive north through the zone (centre 35.52, 139.63; 300 m) ending `endAgo` ms ago: one enter, one exit. */
const drive = (endAgo: number) => {
  const end = Date.now() - endAgo;
  return Array.from({ length: 13 }, (_, i) => ({
    type: 'gps',
    time: new Date(end - (12 - i) * 10_000).toISOString(),
    lat: 35.52 - 0.006 + i * 0.001,
    lng: 139.63,
    speed: 40,
    heading: 0,
  }));
};

test.beforeAll(async ({ request }) => {
  const admin = await apiAs(request, 'admin');
  const api = await apiAs(request, 'tokyo-admin');
  const userId = uniqueId('U-ib');
  await admin.addCustomer({ user_id: userId, first_name: '受信箱', name: '確認' });
  await admin.addDevice({ car_device_id: terminal.car_device_id, car_data_id: terminal.imei });
  const car = await admin.call('/api/car_add', {
    info: {
      car_id: carId,
      car_number: carNumber,
      user_id: userId,
      car_device_id: terminal.car_device_id,
      available_data: { lat_min: null, lat_max: null, lng_min: null, lng_max: null },
    },
  });
  expect(car.status, JSON.stringify(car.body)).toBe(200);
  const groupId = (await api.call('/api/group_add', { info: { name: `受信箱${suffix.slice(-6)}` } })).body.group_id;
  expect((await api.call('/api/group_cars_add', { group_id: groupId, car_ids: [carId] })).status).toBe(200);
  const zone = await api.call('/api/zone_add', {
    info: { name: `受信箱倉庫${suffix.slice(-6)}`, shape: 'circle', lat: 35.52, lng: 139.63, radius_m: 300 },
  });
  expect((await api.call('/api/car_zones_update', { car_id: carId, zone_ids: [zone.body.zone_id] })).status).toBe(200);
  await api.addAccount({ account_id: manager, name: '受信箱 担当', role: 1, company_id: 'tokyo-mobility' });
  expect((await api.call('/api/account_groups_update', { account_id: manager, group_ids: [groupId] })).status).toBe(
    200,
  );
  await sendBatch(request, terminal, drive(10 * 60_000));
  await sendBatch(request, terminal, drive(60_000));
});

// The vehicle goes when the spec is done: the specs after it count the demo fleet's vehicles.
test.afterAll(async ({ request }) => {
  const admin = await apiAs(request, 'admin');
  expect((await admin.call('/api/car_delete', { car_id: carId, isDelete: true })).status).toBe(200);
});

test('filter by kind and vehicle, pick two, acknowledge them at once; the bell drops', async ({ page }) => {
  await loginAs(page, manager, '/alerts');
  await expect.poll(() => badgeCount(page)).toBe(4);
  await expect(page.getByTestId('list-range')).toHaveText('全4件中 1〜4件を表示');

  await choose(page, '種類', 'ゾーン進入');
  await page.getByRole('textbox', { name: '車両' }).fill(carNumber.replace(/ /g, ''));
  await expect(page.getByTestId('list-range')).toHaveText('全2件中 1〜2件を表示');
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'ゾーン退出' })).toHaveCount(0);

  const bulk = page.getByRole('button', { name: /選択したアラートを確認済みにする/ });
  await expect(bulk).toBeDisabled();
  await page.getByRole('checkbox', { name: 'このページの行をすべて選択' }).check();
  await expect(bulk).toHaveText('選択したアラートを確認済みにする（2件）');
  await page.screenshot({ path: '/tmp/alert-inbox-selected.png', fullPage: true });
  await bulk.click();
  await expect(page.getByRole('status')).toHaveText('2件のアラートを確認済みにしました');
  await expect.poll(() => badgeCount(page)).toBe(2);
  await expect(page.getByTestId('list-range')).toHaveText('全0件中 0〜0件を表示');

  // With acknowledged ones shown: the two enters, by this account, and no checkbox on them.
  await page.getByLabel('未確認のみ').uncheck();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('受信箱 担当');
  await expect(rows.getByRole('checkbox')).toHaveCount(0);

  await page.screenshot({ path: '/tmp/alert-inbox.png', fullPage: true });
});

test('at a phone’s width the inbox fits and still acknowledges', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, manager, '/alerts');
  await expect.poll(() => badgeCount(page)).toBe(2);
  await expect(page.getByRole('listitem')).toHaveCount(2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('listitem').first().getByRole('button', { name: '確認済みにする' }).click();
  await expect.poll(() => badgeCount(page)).toBe(1);
  await page.screenshot({ path: '/tmp/alert-inbox-phone.png', fullPage: true });
});
