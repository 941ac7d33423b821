import { readFileSync } from 'node:fs';
import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, drive, sendBatch } from '../support/terminal';

/** YYYYMMDDHHmm in Japan time. */
const jstStamp = (d: Date) => new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 16).replace(/\D/g, '');
/** The value of a datetime-local field in Japan time. */
const jstInput = (d: Date) => new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 16);

test('data logs: charts, date filter and the CSV export', async ({ page }) => {
  const t = demoTerminal(2);
  const start = new Date('2026-03-10T01:00:00Z');
  await sendBatch(page.request, t, drive(start, 12));
  await loginAs(page, 'tokyo-admin', `/car/car_loges/${t.imei}`);
  await expect(page.getByRole('heading', { name: 'データログ' })).toBeVisible();

  await page.getByRole('tab', { name: 'バッテリー' }).click();
  await expect(page.getByTestId('time-chart')).toBeVisible();
  await expect(page.getByTestId('log-count')).toContainText(/\d+件/);

  // Only the first five minutes (JST 10:00-10:04).
  await page.getByLabel('開始日時').fill('2026-03-10T10:00');
  await page.getByLabel('終了日時').fill('2026-03-10T10:04');
  await page.getByRole('button', { name: '絞り込む' }).click();
  await expect(page.getByTestId('log-count')).toContainText('5件');
  await expect(page.getByRole('cell', { name: '2026/03/10 10:04' })).toBeVisible();

  const download = page.waitForEvent('download');
  const clickedAt = new Date();
  await page.getByRole('button', { name: 'CSVダウンロード' }).click();
  const file = readFileSync(await (await download).path());
  expect(file.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = file.toString('utf8').slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toBe('日時,電圧 (V),残量 (%)');
  expect(lines).toHaveLength(6);
  // Japan time with seconds, newest first as on screen; the file name's time is Japan time too.
  expect(lines[1]).toMatch(/^2026\/03\/10 10:04:00,/);
  expect(lines[5]).toMatch(/^2026\/03\/10 10:00:00,/);
  const name = /^battery_log_(\d+)_(\d{12})\.csv$/.exec((await download).suggestedFilename());
  expect(name?.[1]).toBe(t.imei);
  expect([jstStamp(clickedAt), jstStamp(new Date())]).toContain(name?.[2]);
});

test('one bound only shows the date-range message', async ({ page }) => {
  await loginAs(page, 'tokyo-admin');
  await page.goto(`/car/car_loges/${demoTerminal(2).imei}`);
  await page.getByLabel('開始日時').fill('2026-03-10T10:00');
  await expect(page.getByText('開始日時と終了日時の両方を入力してください')).toBeVisible();
  await expect(page.getByRole('button', { name: '絞り込む' })).toBeDisabled();
});

test('the travel route draws the period with start and end', async ({ page }) => {
  const t = demoTerminal(3);
  // A period of its own three days back: other specs (the fleet map) report for this demo terminal now.
  const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3 * 24 * 3600_000);
  await sendBatch(page.request, t, drive(start, 20));
  await loginAs(page, 'tokyo-admin', `/car/car_travelroute/${t.car_id}/${t.imei}`);
  await page.getByText('期間指定').click();
  await page.getByLabel('開始日時').fill(jstInput(start));
  await page.getByLabel('終了日時').fill(jstInput(new Date(start.getTime() + 19 * 60_000)));
  await expect(page.getByTestId('route-地点数')).toHaveText('20');
  await expect(page.getByTestId('route-走行距離')).not.toHaveText('0.0 km');
  await expect(page.getByRole('slider', { name: '再生位置' })).toBeVisible();
  await page.getByRole('button', { name: '再生' }).click();
  await expect(page.getByRole('button', { name: '一時停止' })).toBeVisible();
});
