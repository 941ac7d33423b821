import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, bodyRows, choose, uniqueId } from '../support/master-data';

/**
 * Vehicle groups (docs/groups.md) in the console: a group made on 拠点・部署, two vehicles put in it by the
 * vehicle list's bulk action, the list filtered by it, an account limited to it that then sees only
 * those two; zones given to the same two vehicles in bulk. Screenshots at 1366×768 in /tmp.
 */
test.use({ viewport: { width: 1366, height: 768 } });

test('a group by bulk action, the filter, an account limited to it, zones in bulk', async ({ page }) => {
  const group = `横浜営業所-${uniqueId('g').slice(-6)}`;
  const admin = await apiAs(page.request, 'kanagawa-admin');
  // A zone far from every demo drive (Naha), so no other spec's reports cross it.
  const zoneName = `那覇-${uniqueId('z').slice(-6)}`;
  const zone = await admin.call('/api/zone_add', {
    info: { name: zoneName, shape: 'circle', lat: 26.2124, lng: 127.6809, radius_m: 300 },
  });
  expect(zone.status).toBe(200);
  const groupZoneName = `首里-${uniqueId('z').slice(-6)}`;
  const groupZone = await admin.call('/api/zone_add', {
    info: { name: groupZoneName, shape: 'circle', lat: 26.2172, lng: 127.7195, radius_m: 300 },
  });
  expect(groupZone.status).toBe(200);
  const accountId = uniqueId('branch');
  await admin.addAccount({ account_id: accountId, name: '支店 担当', role: 2, company_id: 'kanagawa-auto' });

  // 拠点・部署: add the group; it has no vehicle yet.
  await loginAs(page, 'kanagawa-admin', '/car/car_groups');
  await expect(page.getByRole('heading', { name: '拠点・部署', level: 1 })).toBeVisible();
  await page.getByLabel('新しい拠点・部署').fill(group);
  await page.getByRole('button', { name: '追加', exact: true }).click();
  await expect(page.getByText(`「${group}」を追加しました`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(group) })).toContainText('0 台');
  // The same name again is refused in Japanese.
  await page.getByLabel('新しい拠点・部署').fill(group);
  await page.getByRole('button', { name: '追加', exact: true }).click();
  await expect(page.getByText('同じ名前の拠点・部署がすでにあります')).toBeVisible();

  // 車両一覧: pick the first two vehicles, put them in the group.
  await page.goto('/car/car_list');
  const rows = bodyRows(page);
  await expect(rows.nth(1)).toContainText(/C\d{6}/);
  const cell = async (row: number, column: number) =>
    (await rows.nth(row).locator('td').nth(column).innerText()).trim();
  const numbers = [await cell(0, 2), await cell(1, 2)];
  const firstCar = await cell(0, 1);
  await page.getByRole('checkbox', { name: `${numbers[0]} を選択` }).check();
  await page.getByRole('checkbox', { name: `${numbers[1]} を選択` }).check();
  await expect(page.getByText('2台を選択中')).toBeVisible();
  await page.getByRole('button', { name: '拠点・部署に追加' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: '追加先の拠点・部署' }).click();
  await page.getByRole('option', { name: group, exact: true }).click();
  await dialog.getByRole('button', { name: '適用' }).click();
  await expect(page.getByText(`2台を「${group}」に追加しました（新たに追加：2台）`)).toBeVisible();
  await expect(page.getByText('車両を選択すると一括で操作できます')).toBeVisible();

  // The filter: only the two.
  await choose(page, '拠点・部署', group);
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).nth(0)).toContainText(numbers[0]!);
  await expect(bodyRows(page).nth(1)).toContainText(numbers[1]!);
  await page.screenshot({ path: '/tmp/groups-car-list-1366x768.png' });

  // Zones in bulk: select the page (the two of the group), give them the zone.
  await page.getByRole('checkbox', { name: 'このページの行をすべて選択' }).check();
  await page.getByRole('button', { name: 'ゾーンを割り当て' }).click();
  await dialog.getByRole('combobox', { name: '追加するゾーン' }).click();
  await page.getByRole('option', { name: zoneName, exact: true }).click();
  await page.screenshot({ path: '/tmp/groups-bulk-zones-1366x768.png' });
  // Closes the choice's list, which lies over the buttons.
  await dialog.getByText('選択した車両：2台').click();
  await dialog.getByRole('button', { name: '適用' }).click();
  await expect(page.getByText('2台にゾーン1件を割り当てました（新たな割り当て：2件）')).toBeVisible();
  const zonesList = await admin.call('/api/zone_list', {});
  const ours = (zonesList.body.list as { name: string; car_count: number }[]).find((z) => z.name === zoneName);
  expect(ours?.car_count).toBe(2);

  // The group screen counts them.
  await page.goto('/car/car_groups');
  await expect(page.getByRole('row', { name: new RegExp(group) })).toContainText('2 台');
  await page.screenshot({ path: '/tmp/groups-screen-1366x768.png' });
  // The group's zones: judged for its vehicles besides their own; the vehicle's zone card names them.
  await page
    .getByRole('row', { name: new RegExp(group) })
    .getByRole('button', { name: 'ゾーン' })
    .click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'ゾーン' }).click();
  await page.getByRole('option', { name: groupZoneName, exact: true }).click();
  await page.getByRole('dialog').getByText('ここで選んだゾーンでも').click();
  await page.getByRole('dialog').getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('ゾーンを保存しました')).toBeVisible();

  // The vehicle's screens: its groups on 車両詳細, the group's zone beside its own on タイムライン.
  await page.goto(`/car/car_detail/${firstCar}`);
  await expect(page.getByRole('combobox', { name: 'この車両の拠点・部署' })).toBeVisible();
  await expect(page.locator('.mantine-Pill-label', { hasText: group })).toBeVisible();
  await page.screenshot({ path: '/tmp/groups-car-detail-1366x768.png', fullPage: true });
  await page.goto(`/car/car_timeline/${firstCar}`);
  await expect(page.getByText(`${groupZoneName}（${group}）`)).toBeVisible();
  await page.screenshot({ path: '/tmp/groups-car-timeline-1366x768.png', fullPage: true });

  // 車両マップ and レポート take the group too.
  await page.goto('/car/car_map');
  await choose(page, '拠点・部署', group);
  await expect(page.getByTestId('fleet-count')).toContainText('全2台');
  await page.screenshot({ path: '/tmp/groups-car-map-1366x768.png' });
  await page.goto('/car/car_report');
  await choose(page, '拠点・部署', group);
  await page.screenshot({ path: '/tmp/groups-report-1366x768.png' });

  // The account limited to the group.
  await page.goto(`/account/account_edit/${accountId}`);
  await page.getByRole('radio', { name: '拠点・部署で制限する' }).check();
  await page.getByRole('combobox', { name: '見える拠点・部署' }).click();
  await page.getByRole('option', { name: group, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '保存', exact: true }).last().click();
  await expect(page.getByText('拠点・部署の制限を保存しました')).toBeVisible();
  await page.screenshot({ path: '/tmp/groups-account-1366x768.png', fullPage: true });

  // Signed in as it: only the two vehicles, in the list and on the map.
  await loginAs(page, accountId, '/car/car_list');
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(page.getByText(numbers[0]!, { exact: true })).toBeVisible();
  await expect(page.getByText(numbers[1]!, { exact: true })).toBeVisible();
  // A common account gets no bulk bar and no group screen in its menu.
  await expect(page.getByRole('toolbar', { name: '選択した車両の一括操作' })).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '拠点・部署' }),
  ).toHaveCount(0);
});
