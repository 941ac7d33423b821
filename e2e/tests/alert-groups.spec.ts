import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { waitForMail } from '../support/mailbox';
import { apiAs, uniqueId, uniqueImei } from '../support/master-data';
import { sendBatch } from '../support/terminal';

/**
 * A branch's own alerts (docs/notifications.md "Group settings", docs/zones.md "Alerts"): a vehicle of
 * its own in a new group of 株式会社東京モビリティサービス with a zone, a branch manager limited to the group;
 * the group's settings set on 通知設定 → 拠点・部署の通知 (a zone enter, told to the branch manager) and the
 * header's bell of the branch manager following the inbox live: up when the vehicle drives through the
 * zone, down when someone else acknowledges, without a reload and without asking on its interval.
 */
test.describe.configure({ mode: 'serial' });

const suffix = uniqueId('br');
const groupName = `港北営業所${suffix.slice(-6)}`;
const zoneName = `港北倉庫${suffix.slice(-6)}`;
const branchManager = uniqueId('branch');
const branchEmail = `${branchManager}@example.jp`;
const terminal = { car_device_id: uniqueId('D-br'), password: 'terminal-pass-1', imei: uniqueImei() };
const carId = uniqueId('C-br');
let groupId = '';

const badgeCount = async (page: Page) => Number(await page.getByTestId('alert-badge').getAttribute('data-count'));

/** A drive north through the zone (centre 35.51, 139.62; 300 m): one enter, one exit. */
const drive = () => {
  const end = Date.now() - 60_000;
  return Array.from({ length: 13 }, (_, i) => ({
    type: 'gps',
    time: new Date(end - (12 - i) * 10_000).toISOString(),
    lat: 35.51 - 0.006 + i * 0.001,
    lng: 139.62,
    speed: 40,
    heading: 0,
  }));
};

test.beforeAll(async ({ request }) => {
  const admin = await apiAs(request, 'admin');
  const api = await apiAs(request, 'tokyo-admin');
  const userId = uniqueId('U-br');
  await admin.addCustomer({ user_id: userId, first_name: '港北', name: '営業所' });
  await admin.addDevice({ car_device_id: terminal.car_device_id, car_data_id: terminal.imei });
  const car = await admin.call('/api/car_add', {
    info: {
      car_id: carId,
      car_number: '横浜 300 あ 10-01',
      user_id: userId,
      car_device_id: terminal.car_device_id,
      available_data: { lat_min: null, lat_max: null, lng_min: null, lng_max: null },
    },
  });
  expect(car.status, JSON.stringify(car.body)).toBe(200);
  groupId = (await api.call('/api/group_add', { info: { name: groupName } })).body.group_id as string;
  expect((await api.call('/api/group_cars_add', { group_id: groupId, car_ids: [carId] })).status).toBe(200);
  const zone = await api.call('/api/zone_add', {
    info: { name: zoneName, shape: 'circle', lat: 35.51, lng: 139.62, radius_m: 300 },
  });
  expect((await api.call('/api/car_zones_update', { car_id: carId, zone_ids: [zone.body.zone_id] })).status).toBe(200);
  await api.addAccount({
    account_id: branchManager,
    name: '港北 所長',
    role: 1,
    company_id: 'tokyo-mobility',
    email: branchEmail,
  });
  const limit = await api.call('/api/account_groups_update', { account_id: branchManager, group_ids: [groupId] });
  expect(limit.status, JSON.stringify(limit.body)).toBe(200);
});

// The vehicle goes when the spec is done: the specs after it count the demo fleet's vehicles.
test.afterAll(async ({ request }) => {
  const admin = await apiAs(request, 'admin');
  expect((await admin.call('/api/car_delete', { car_id: carId, isDelete: true })).status).toBe(200);
});

test('a group’s notification settings: recipients and a zone enter, refused without a recipient, kept', async ({
  page,
}) => {
  await loginAs(page, 'tokyo-admin', '/notify');
  await page.getByRole('tab', { name: '拠点・部署の通知' }).click();
  await page.getByRole('combobox', { name: '拠点・部署', exact: true }).click();
  await page.getByRole('option', { name: groupName }).click();
  await page.getByRole('switch', { name: 'ゾーン進入' }).check();
  await page.getByRole('button', { name: '拠点・部署の通知設定を保存する' }).click();
  await expect(page.getByText('通知する項目があるときは通知先を1つ以上選択してください')).toBeVisible();
  await page.getByRole('combobox', { name: '通知先アカウント' }).fill('港北');
  await page.getByRole('option', { name: new RegExp(branchEmail) }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '拠点・部署の通知設定を保存する' }).click();
  await expect(page.getByText('拠点・部署の通知設定を更新しました。')).toBeVisible();
  await page.screenshot({ path: '/tmp/group-notify.png', fullPage: true });

  await page.reload();
  await page.getByRole('tab', { name: '拠点・部署の通知' }).click();
  await page.getByRole('combobox', { name: '拠点・部署', exact: true }).click();
  await page.getByRole('option', { name: groupName }).click();
  await expect(page.getByRole('switch', { name: 'ゾーン進入' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'ゾーン退出' })).not.toBeChecked();
  // The chosen account as a pill of the field (its option sits in the closed dropdown, outside the panel).
  await expect(
    page.getByRole('tabpanel', { name: '拠点・部署の通知' }).getByText(`港北 所長（${branchEmail}）`),
  ).toBeVisible();
});

test('the bell follows the inbox live: up when an alert arrives, down when another account acknowledges', async ({
  page,
}) => {
  let countCalls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/alert_count')) countCalls++;
  });
  await loginAs(page, branchManager, '/car/car_list');
  // The limited account's bell counts its group's vehicle only.
  await expect.poll(() => badgeCount(page)).toBe(0);
  const asked = countCalls;

  await sendBatch(page.request, terminal, drive());
  await expect.poll(() => badgeCount(page)).toBe(2);
  await page.screenshot({ path: '/tmp/alert-badge-live.png' });

  const admin = await apiAs(page.request, 'tokyo-admin');
  const list = await admin.call('/api/alert_list', { unacknowledged: true });
  const mine = (list.body.list as { alert_id: string; car_id: string }[]).filter((a) => a.car_id === carId);
  expect(mine).toHaveLength(2);
  expect((await admin.call('/api/alert_ack', { alert_id: mine[0]!.alert_id })).status).toBe(200);
  await expect.poll(() => badgeCount(page)).toBe(1);
  // Pushed, not asked for: no count call since the page loaded.
  expect(countCalls).toBe(asked);

  // The group's settings told the branch manager of the enter by mail.
  const mail = await waitForMail(branchEmail, (m) => m.subject.includes('ゾーン進入'));
  expect(mail.text).toContain(`ゾーン「${zoneName}」に入りました`);
  expect(mail.text).toContain(`拠点・部署「${groupName}」の通知設定による通知です。`);
});
