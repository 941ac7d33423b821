import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

/**
 * Zones (docs/zones.md): drawing a circle and a polygon on the library's map, a polygon that crosses itself
 * refused; a vehicle assigned the circle reports a drive through it: one enter and one exit on its
 * タイムライン, two rows in the アラート inbox and on the header's badge, one acknowledged.
 */
const terminal = demoTerminal(13); // a 神奈川オートリース vehicle no other spec reports for
const suffix = String(Date.now() % 100000);
const circleName = `営業所${suffix}`;

/** Clicks the map `dx`, `dy` pixels from its centre. */
async function clickMap(page: Page, dx: number, dy: number) {
  const box = (await page.getByTestId('zone-editor').getByTestId('map').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
}
const badgeCount = async (page: Page) => Number(await page.getByTestId('alert-badge').getAttribute('data-count'));

test('drawing a circle and a polygon; a polygon crossing itself is refused', async ({ page }) => {
  await loginAs(page, 'kanagawa-admin', '/car/car_zones');
  await page.getByRole('button', { name: 'ゾーンを追加' }).click();
  await page.getByLabel('ゾーン名').fill(circleName);
  // The centre at the map's centre (Tokyo Station), the radius by a second click, then set to the metre.
  await clickMap(page, 0, 0);
  await clickMap(page, 60, 0);
  await expect(page.getByLabel('半径（m）')).not.toHaveValue('');
  await page.getByLabel('半径（m）').fill('500');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('cell', { name: circleName })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(circleName) })).toContainText('半径 500 m');

  await page.getByRole('button', { name: 'ゾーンを追加' }).click();
  await page.getByLabel('ゾーン名').fill(`倉庫${suffix}`);
  await page.getByText('多角形', { exact: true }).click();
  // A bow tie: the edges cross.
  for (const [dx, dy] of [
    [-80, -60],
    [80, 60],
    [80, -60],
    [-80, 60],
  ])
    await clickMap(page, dx!, dy!);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    '多角形の辺が交差しています。辺が交わらないように頂点を置いてください',
  );
  await page.getByRole('button', { name: '描き直す' }).click();
  for (const [dx, dy] of [
    [-80, -60],
    [80, -60],
    [80, 60],
    [-80, 60],
  ])
    await clickMap(page, dx!, dy!);
  await expect(page.getByText('頂点 4 点')).toBeVisible();
  await page.screenshot({ path: '/tmp/zones-draw.png' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`倉庫${suffix}`) })).toContainText('4 頂点');
  await expect(page.getByRole('row', { name: /倉庫.*交差/ })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/zones-library.png', fullPage: true });
});

test('the timeline and the inbox with its badge after a drive through an assigned zone', async ({ page, request }) => {
  await loginAs(page, 'kanagawa-admin', `/car/car_timeline/${terminal.car_id}/${terminal.imei}`);
  await page.getByRole('combobox', { name: 'この車両を判定するゾーン' }).click();
  await page.getByRole('option', { name: circleName }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '割り当てを保存' }).click();
  await expect(page.getByText('割り当てを保存しました')).toBeVisible();
  const before = await badgeCount(page);

  // South to north through Tokyo Station, a point every 111 m, ten seconds apart, ending a minute ago.
  const end = Date.now() - 60_000;
  const records = Array.from({ length: 19 }, (_, i) => ({
    type: 'gps',
    time: new Date(end - (18 - i) * 10_000).toISOString(),
    lat: 35.6812 - 0.009 + i * 0.001,
    lng: 139.7671,
    speed: 40,
    heading: 0,
    satellites: 9,
    accuracy: 5,
  }));
  await sendBatch(request, terminal, records);
  await page.reload();
  const timeline = page.getByTestId('car-timeline');
  await expect(timeline).toContainText(`ゾーン「${circleName}」に入りました`);
  await expect(timeline).toContainText(`ゾーン「${circleName}」から出ました`);
  await expect.poll(() => badgeCount(page)).toBe(before + 2);
  await page.screenshot({ path: '/tmp/zones-timeline.png', fullPage: true });

  await page.getByTestId('alert-badge').click();
  await expect(page).toHaveURL(/\/alerts$/);
  const rows = page.getByRole('row', { name: new RegExp(circleName) });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('ゾーン退出');
  await rows.first().getByRole('button', { name: '確認済みにする' }).click();
  await expect.poll(() => badgeCount(page)).toBe(before + 1);
  // Only the unacknowledged are listed by default; all of them with the box cleared, with who acknowledged.
  await expect(rows).toHaveCount(1);
  await page.getByLabel('未確認のみ').uncheck();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('石川');
  await page.screenshot({ path: '/tmp/zones-inbox.png', fullPage: true });
});
