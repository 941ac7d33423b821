import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

const shot = (name: string) => fileURLToPath(new URL(`../../docs/screenshots/${name}`, import.meta.url));

const t = demoTerminal(11);
/** A day of its own in Japan, long past: no other spec reports for this terminal then. */
const DAY = '2026-02-17';
const at = (hhmmss: string) => new Date(`${DAY}T${hhmmss}+09:00`);

/**
 * A morning of the vehicle: parked at the depot, a 6 km drive, 20 minutes at a customer, 4 km on, parked
 * again until the end of the data. The server's detection job turns it into 2 trips and 3 stops.
 */
function morning() {
  const records: Record<string, unknown>[] = [];
  const gps = (time: Date, lat: number, lng: number, speed: number) =>
    records.push({ type: 'gps', time: time.toISOString(), lat, lng, speed, heading: 45, satellites: 9, accuracy: 5 });
  let now = at('08:50:00').getTime();
  let lat = 35.6812;
  let lng = 139.7671;
  const park = (minutes: number) => {
    for (let i = 0; i < minutes * 2; i++, now += 30_000) gps(new Date(now), lat, lng, 0);
  };
  const driveFor = (steps: number, dLat: number, dLng: number) => {
    for (let i = 0; i < steps; i++, now += 20_000) {
      lat += dLat;
      lng += dLng;
      gps(new Date(now), lat, lng, 30);
    }
  };
  park(10);
  driveFor(36, 0.0015, 0); // about 6 km north
  park(20);
  driveFor(24, 0, -0.002); // about 4.3 km west
  park(10);
  return records;
}

async function tokenOf(request: APIRequestContext, username: string) {
  const res = await request.post('/api/login', { data: { username, password: DEMO_PASSWORD } });
  return ((await res.json()) as { token: string }).token;
}

test.beforeAll(async ({ request }) => {
  // The terminal reports today from across town first (as the fleet map's spec has it do), so the
  // morning arrives late and the silence between them must not become a drive.
  await sendBatch(request, { car_device_id: t.car_device_id, password: t.password }, [
    { type: 'gps', time: new Date().toISOString(), lat: 35.74, lng: 139.7, speed: 0, heading: 0, satellites: 9 },
  ]);
  await sendBatch(request, { car_device_id: t.car_device_id, password: t.password }, morning(), 4_517_000);
  // The detection job follows new positions every few seconds: wait until the day's trips are stored.
  const token = await tokenOf(request, 'tokyo-admin');
  await expect
    .poll(
      async () => {
        const res = await request.post('/api/car_trips', {
          headers: { authorization: `Bearer ${token}` },
          data: { car_data_id: t.imei, from: DAY, to: DAY },
        });
        return ((await res.json()) as { trips?: unknown[] }).trips?.length ?? 0;
      },
      { timeout: 50_000 },
    )
    .toBe(2);
});

test('運行日報: a day of a vehicle, its totals, map, tables, other days and the files', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', `/car/car_daily_report/${t.car_id}/${t.imei}?date=${DAY}`);
  await expect(page).toHaveTitle(/運行日報/);
  await expect(page.getByRole('tab', { name: '運行日報' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('日付')).toHaveValue(DAY.replace(/-/g, '/'));

  await expect(page.getByTestId('daily-走行距離')).toHaveText(/^10\.\d km$/);
  await expect(page.getByTestId('daily-停車回数')).toHaveText('3回');
  await expect(page.getByTestId('daily-最高速度')).toHaveText(/km\/h$/);
  const tables = page.getByRole('table');
  await expect(tables.nth(0).locator('tbody tr')).toHaveCount(2);
  // The drive leaves from the last position parked at the depot (08:59:30).
  await expect(tables.nth(0).locator('tbody tr').first()).toContainText('08:59');
  await expect(tables.nth(1).locator('tbody tr')).toHaveCount(3);
  // The last stop lasted until the terminal reported again, today (beforeAll): its end carries today's date.
  const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(5, 10).replace('-', '/');
  await expect(tables.nth(1).locator('tbody tr').last()).toContainText(`${today} `);
  // One numbered pin per stop on the map, over the day's route.
  await expect(page.locator('.leaflet-marker-icon')).toHaveCount(3);
  // The route line is drawn on the map's canvas (the map host prefers canvas).
  await expect(page.locator('.leaflet-container canvas').first()).toBeVisible();
  await page.screenshot({ path: shot('car-daily-report-1366.png'), fullPage: true });

  // Downloads of the day.
  const excel = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Excel' }).click();
  expect((await excel).suggestedFilename()).toBe(`daily_report_${t.imei}_${DAY}.xlsx`);
  expect(
    readFileSync(await (await excel).path())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
  const pdf = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF' }).click();
  expect(
    readFileSync(await (await pdf).path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // 前日 has nothing, and says so; 翌日 brings the day back.
  await page.getByRole('button', { name: '前日' }).click();
  await expect(page).toHaveURL(/date=2026-02-16/);
  await expect(page.getByTestId('daily-empty')).toHaveText('この日の運行・停車はありません。');
  await expect(page.getByTestId('daily-走行距離')).toHaveText('0.0 km');
  await page.getByRole('button', { name: '翌日' }).click();
  await expect(page.getByTestId('daily-停車回数')).toHaveText('3回');
});

test('レポート: the fleet summary over a range, sorted, downloaded, and subscribed by mail', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', '/car/car_list');
  await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'レポート' }).click();
  await expect(page).toHaveTitle(/レポート/);
  // A company account sees its company: no company filter.
  await expect(page.getByLabel('加盟店')).toHaveCount(0);

  await page.getByText('期間指定').click();
  await page.getByLabel('開始日').fill(DAY);
  await page.getByLabel('終了日').fill(DAY);
  await expect(page.getByTestId('summary-range')).toContainText('2026/02/17〜2026/02/17');
  const rows = page.locator('tbody tr');
  // Sorted by distance, longest first: the vehicle that drove that day comes first.
  await expect(rows.first()).toContainText(t.imei);
  await expect(rows.first()).toContainText(/10\.\d km/);
  await expect(rows.first()).toContainText('2回');
  await expect(page.getByTestId('summary-車両')).toHaveText(/^\d+台$/);
  await page.screenshot({ path: shot('car-report-1366.png'), fullPage: true });

  await page.getByRole('button', { name: /走行距離/ }).click();
  await expect(page.getByRole('columnheader', { name: /走行距離/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first()).not.toContainText(t.imei);

  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  expect((await csv).suggestedFilename()).toBe(`fleet_summary_${DAY}_${DAY}.csv`);
  const text = readFileSync(await (await csv).path(), 'utf8');
  expect(text.startsWith('\uFEFF車両番号,IMEI,走行距離 (km)')).toBe(true);
  expect(text).toContain(`${t.imei},10.`);

  // A vehicle's row opens its 運行日報 of that day.
  await rows.filter({ hasText: t.imei }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/car/car_daily_report/${t.car_id}/${t.imei}\\?date=${DAY}`));
  await page.goBack();

  const mail = page.getByRole('region', { name: '定期レポート（メール）' });
  await expect(mail).toContainText('送信先: ');
  await mail.getByLabel('毎日（前日の車両別集計）').check();
  await mail.getByRole('button', { name: '保存' }).click();
  await expect(mail.getByRole('status')).toHaveText('定期レポートの設定を保存しました');
  await page.reload();
  await expect(
    page.getByRole('region', { name: '定期レポート（メール）' }).getByLabel('毎日（前日の車両別集計）'),
  ).toBeChecked();
});

test('the super admin filters the summary by company', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_report');
  await page.getByText('期間指定').click();
  await page.getByLabel('開始日').fill(DAY);
  await page.getByLabel('終了日').fill(DAY);
  await expect(page.locator('tbody tr').first()).toContainText(t.imei);
  await page.getByRole('combobox', { name: '加盟店' }).click();
  await page.getByRole('option', { name: /神奈川オートリース/ }).click();
  await expect(page.locator('tbody')).not.toContainText(t.imei);
  await expect(page.locator('tbody tr').first()).toContainText('0.0 km');
});

test('運行判定の設定: a company admin sees the rule, a wrong number is refused in Japanese', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', '/car/car_list');
  await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '運行判定の設定' }).click();
  await expect(page).toHaveTitle(/運行判定の設定/);
  const minStop = page.getByLabel('停車とみなす最短時間（秒）');
  await expect(minStop).toHaveValue('300');
  await minStop.fill('10');
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByText('停車とみなす最短時間は60〜7200秒の範囲で入力してください')).toBeVisible();
  await minStop.fill('300');
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByRole('status')).toHaveText('運行判定の設定を保存しました。');

  // A common account has no such entry, and the screen refuses it.
  await loginAs(page, 'tokyo-staff', '/trip_settings');
  await expect(page.getByText('この操作を行う権限がありません。')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '運行判定の設定' }),
  ).toHaveCount(0);
});
