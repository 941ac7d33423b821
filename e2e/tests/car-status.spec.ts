import { expect, loginAs, test } from '../support/fixtures';
import { choose } from '../support/master-data';

// docs/console.md, "Vehicle screens": 車両ステータス says what it means, and a save is confirmed.
test('車両ステータス shows its meaning and confirms a save', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_detail/C000014');
  await expect(page.getByText('通常（0）').first()).toBeVisible();
  await choose(page, '車両ステータスの変更', '点検・整備中（1）');
  await page.getByRole('button', { name: '更新', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '車両ステータスを「点検・整備中（1）」に更新しました。' }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: '車両ステータスの変更', exact: true })).toHaveValue(
    '点検・整備中（1）',
  );

  // Put it back for other tests.
  await choose(page, '車両ステータスの変更', '通常（0）');
  await page.getByRole('button', { name: '更新', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '「通常（0）」に更新しました。' })).toBeVisible();
});
