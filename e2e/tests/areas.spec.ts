import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal } from '../support/terminal';

test('the area editor: add an area, edit its bounds, save, reload, still there; save and apply a template', async ({
  page,
}) => {
  const t = demoTerminal(7);
  await loginAs(page, 'tokyo-manager', `/car/car_forbidden_area/${t.car_id}/${t.imei}`);
  await expect(page.getByText('禁止エリア（0件）')).toBeVisible();
  await page.getByRole('button', { name: '地図の中央にエリアを追加' }).click();
  await expect(page.getByText('禁止エリア（1件）')).toBeVisible();
  await page.getByLabel('エリア名1').fill('倉庫周辺');
  await page.getByLabel('緯度（最小）1').fill('35.60');
  await page.getByLabel('緯度（最大）1').fill('35.70');
  await page.getByLabel('経度（最小）1').fill('139.70');
  await page.getByLabel('経度（最大）1').fill('139.80');
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByText('禁止エリアを保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('エリア名1')).toHaveValue('倉庫周辺');
  await expect(page.getByLabel('緯度（最大）1')).toHaveValue('35.7');

  // A bad bound is refused with the field's message and nothing is saved.
  await page.getByLabel('緯度（最大）1').fill('35.5');
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByText('最小値より大きい値を入力してください')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('緯度（最大）1')).toHaveValue('35.7');

  const name = `倉庫テンプレート${Date.now() % 100000}`;
  await page.getByPlaceholder('テンプレート名').fill(name);
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText(`テンプレート「${name}」を保存しました。`)).toBeVisible();

  const other = demoTerminal(8);
  await page.goto(`/car/car_forbidden_area/${other.car_id}/${other.imei}`);
  await expect(page.getByText('禁止エリア（0件）')).toBeVisible();
  await page.getByRole('combobox', { name: 'テンプレート' }).click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await page.getByRole('button', { name: 'この車両に適用' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '適用する' }).click();
  await expect(page.getByText('禁止エリア（1件）')).toBeVisible();
  await expect(page.getByLabel('エリア名1')).toHaveValue('倉庫周辺');
});
