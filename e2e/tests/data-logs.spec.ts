import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

// docs/telemetry.md, "Console calls": the data-log screen in Japanese, truthful and self-sufficient.
const t = demoTerminal(4); // a Tokyo vehicle: the Kanagawa ones must never report (operator-screens.spec.ts)
const start = Date.parse('2026-04-02T23:40:00Z'); // 08:40 JST on 04/03
const at = (min: number) => new Date(start + min * 60_000).toISOString();

// Sign-ins spread over the demo accounts: each allows 20 password checks a minute (credentials/login-limit.ts),
// and the engine specs after this one check the super admin's password again.
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const records: Record<string, unknown>[] = [];
  for (let i = 0; i < 6; i++) {
    records.push({ type: 'gps', time: at(i), lat: 35.68 + i * 0.001, lng: 139.76, speed: 20 + i, heading: 90 });
    records.push({
      type: 'obd2',
      time: at(i),
      pids: {
        rpm: 800 + i * 100,
        vehicle_speed: 20 + i,
        coolant_temp: 80,
        fuel_level: 50 - i,
        engine_load: 30,
        throttle_pos: 12,
        maf: 3.5,
      },
    });
    records.push({
      type: 'sensor',
      time: at(i),
      vibration: 0.1,
      readings: { temperature_c: 21.5, humidity_pct: 40, charging: true, door: 'closed' },
    });
  }
  // A fixed seq: a retried worker's beforeAll stores nothing twice.
  await sendBatch(request, t, records, 1_775_000_000_013);
  await request.dispose();
});

test('charts speak Japanese: 24-hour JST ticks, no am/pm or M/D/YY, legends with labels and units', async ({
  page,
}) => {
  // The axes are drawn on a canvas: record every text the page draws.
  await page.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { drawnTexts: string[] }).drawnTexts = drawn;
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
      drawn.push(String(text));
      return maxWidth === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, maxWidth);
    };
  });
  await loginAs(page, 'tokyo-admin', `/car/car_loges/${t.imei}`);
  await page.getByRole('tab', { name: 'OBD2' }).click();
  await expect(page.getByTestId('time-chart')).toBeVisible();
  const legend = page.locator('.u-legend');
  await expect(legend).toContainText('エンジン回転数 (rpm)');
  await expect(legend).toContainText('燃料残量 (%)');
  await expect(legend).not.toContainText('fuel_level');
  const texts = await page.evaluate(() => (window as unknown as { drawnTexts: string[] }).drawnTexts);
  const ticks = texts.join(' | ');
  expect(ticks).toMatch(/\b08:4\d\b/);
  expect(ticks).not.toMatch(/\d(am|pm)\b/i);
  expect(ticks).not.toMatch(/(?<![\d/])\d{1,2}\/\d{1,2}\/\d{2}(?!\d)/);
});

test('OBD2 and sensor cells are labelled columns with units, never raw JSON', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', `/car/car_loges/${t.imei}`);
  await page.getByRole('tab', { name: 'OBD2' }).click();
  await expect(page.getByRole('columnheader', { name: 'エンジン回転数 (rpm)' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '車速 (km/h)' })).toBeVisible();
  const firstRow = page.getByRole('table', { name: 'OBD2ログ' }).getByRole('row').nth(1);
  await expect(firstRow.getByRole('cell', { name: '1300', exact: true })).toBeVisible();
  await expect(firstRow).toContainText('maf: 3.5');
  await expect(page.getByRole('cell').filter({ hasText: '{' })).toHaveCount(0);

  await page.getByRole('tab', { name: 'センサー' }).click();
  await expect(page.getByRole('columnheader', { name: '温度 (℃)' })).toBeVisible();
  const sensorRow = page.getByRole('table', { name: 'センサーログ' }).getByRole('row').nth(1);
  await expect(sensorRow).toContainText('充電: ON');
  await expect(sensorRow).toContainText('door: closed');
  await expect(page.getByRole('cell').filter({ hasText: '{' })).toHaveCount(0);
});

/** One tab of a terminal's data log, filtered to a period (datetime-local values, Japan time). */
async function showLog(page: Page, imei: string, tab: string, from: string, to: string) {
  await page.goto(`/car/car_loges/${imei}`);
  await page.getByRole('tab', { name: tab }).click();
  await page.getByLabel('開始日時').fill(from);
  await page.getByLabel('終了日時').fill(to);
  await page.getByRole('button', { name: '絞り込む' }).click();
}

/** The GPS tab filtered to this spec's hour: six points 08:40-08:45 Japan time, newest first. */
async function expectTheGpsHour(page: Page) {
  await loginAs(page, 'tokyo-admin');
  // Only this spec's hour: other specs (the fleet map) report for this demo terminal at the time they run.
  await showLog(page, t.imei, 'GPS', '2026-04-03T08:00', '2026-04-03T09:00');
  await expect(page.getByTestId('log-count')).toContainText('6件');
  await expect(page.getByTestId('log-count')).toContainText('（新しい順）');
  const rows = page.getByRole('table', { name: 'GPSログ' }).getByRole('row');
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText('2026/04/03 08:45');
  await expect(rows.last().getByRole('cell').first()).toHaveText('2026/04/03 08:40');
}

test('the GPS tab lists newest first, as it says', async ({ page }) => {
  await expectTheGpsHour(page);
});

test.describe('on a PC set to another time zone', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('the log still lists Japan time, the time its date filter is read in', async ({ page }) => {
    await expectTheGpsHour(page);
  });
});

test('a reversed date range marks the field and keeps the rows on screen', async ({ page }) => {
  await loginAs(page, 'admin', `/car/car_loges/${t.imei}`);
  await page.getByRole('tab', { name: 'OBD2' }).click();
  await page.getByLabel('開始日時').fill('2026-04-03T08:40');
  await page.getByLabel('終了日時').fill('2026-04-03T08:43');
  await page.getByRole('button', { name: '絞り込む' }).click();
  await expect(page.getByTestId('log-count')).toContainText('4件');

  await page.getByLabel('開始日時').fill('2026-04-03T09:00');
  await expect(page.getByLabel('開始日時')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('開始日時は終了日時以前で指定してください')).toBeVisible();
  await expect(page.getByRole('button', { name: '絞り込む' })).toBeDisabled();
  await expect(page.getByText('入力内容に誤りがあります。')).toHaveCount(0);
  await expect(page.getByTestId('log-count')).toContainText('4件');
  await expect(page.getByRole('columnheader', { name: 'エンジン回転数 (rpm)' })).toBeVisible();
});

test('opened from a bookmark in a fresh session, the screen shows the vehicle and its tabs', async ({ page }) => {
  await loginAs(page, 'admin'); // a new session: no vehicle selected before
  await page.goto(`/car/car_loges/${t.imei}`);
  await expect(page.getByRole('tab', { name: '車両詳細' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'エンジン制御' })).toBeVisible();
  await expect(page.getByText(new RegExp(`（${t.car_id}）`))).toBeVisible();
  await page.getByRole('tab', { name: '車両詳細' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_detail/${t.car_id}/${t.imei}`));
});

test('a log longer than a page loads its older rows on request, each row once', async ({ page }) => {
  // 1,005 battery readings 10 s apart, 2025-05-01 09:00-11:47 JST; a fixed seq stores them once whatever retries.
  const battery = demoTerminal(9);
  const from = Date.parse('2025-05-01T00:00:00Z');
  const records = Array.from({ length: 1005 }, (_, i) => ({
    type: 'battery',
    time: new Date(from + i * 10_000).toISOString(),
    voltage: 12 + (i % 10) / 10,
    percentage: 80,
  }));
  await sendBatch(page.request, battery, records, 1_775_000_000_021);

  await loginAs(page, 'tokyo-admin');
  await showLog(page, battery.imei, 'バッテリー', '2025-05-01T09:00', '2025-05-01T12:00');
  await expect(page.getByTestId('log-count')).toHaveText('1,000件を表示（新しい順）');
  const table = page.getByRole('table', { name: 'バッテリーログ' });
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('2025/05/01 11:47');

  // The next page is asked for after the last row: its id and its time, as the page gave them.
  const older = page.waitForRequest(
    (r) => r.url().endsWith('/api/car_get_battery_log') && !!r.postDataJSON()?.before_id,
  );
  await page.getByRole('button', { name: 'さらに古いログを読み込む' }).click();
  const body = (await older).postDataJSON() as { before_id: number; before_at: string };
  expect(body.before_at).toBe(new Date(from + 5 * 10_000).toISOString());
  await expect(page.getByTestId('log-count')).toHaveText('1,005件を表示（新しい順）');
  await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('2025/05/01 09:00');
  await expect(page.getByRole('button', { name: 'さらに古いログを読み込む' })).toBeHidden();
});
