import { expect, loginAs, test } from '../support/fixtures';
import { apiAs } from '../support/master-data';

test('the super admin reads who changed what; nobody else can', async ({ page }) => {
  const manager = await apiAs(page.request, 'tokyo-manager');
  expect((await manager.call('/api/car_status_update', { car_id: 'C000010', car_status: 3 })).status).toBe(200);
  expect((await manager.call('/api/audit_log_list', {})).status).toBe(403);

  await loginAs(page, 'admin', '/car/car_list');
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: '操作履歴' }).click();
  await expect(page.getByRole('heading', { name: '操作履歴' })).toBeVisible();
  await page.getByRole('textbox', { name: '対象ID' }).fill('C000010');
  const row = page.getByRole('row', { name: /車両ステータス変更/ }).first();
  await expect(row).toContainText('森田 沙織');
  await expect(row).toContainText('車両 C000010');
});
