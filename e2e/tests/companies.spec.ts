import { expect, loginAs, test } from '../support/fixtures';
import { uniqueId } from '../support/master-data';

test('the super admin registers a franchise company, edits it, deletes and restores it', async ({ page }) => {
  const id = uniqueId('fc');
  await loginAs(page, 'admin', '/company/company_add');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('必須項目です').first()).toBeVisible();
  await page.getByRole('textbox', { name: '会社ID' }).fill(id);
  await page.getByRole('textbox', { name: '会社名' }).fill('株式会社さいたまフリート');
  await page.getByRole('textbox', { name: '電話番号' }).fill('048-123-4567');
  await page.getByRole('textbox', { name: 'メールアドレス' }).fill('info@saitama-fleet.example.jp');
  await page.getByRole('textbox', { name: '住所' }).fill('埼玉県さいたま市大宮区桜木町1-7-5');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { name: '加盟店詳細' })).toBeVisible();
  await expect(page.getByText('株式会社さいたまフリート').first()).toBeVisible();

  await page.getByRole('link', { name: '編集' }).click();
  await page.getByRole('textbox', { name: '担当者名' }).fill('大宮 太一');
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page.getByText('大宮 太一')).toBeVisible();

  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByRole('button', { name: '復元', exact: true })).toBeVisible();
  await page.goto('/company/company_list');
  await page.getByLabel('検索キーワード').fill(id);
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page.getByText('検索条件に一致するデータがありません。')).toBeVisible();
  await page.getByRole('switch', { name: '削除済みも表示' }).check();
  await expect(page.getByRole('link', { name: id })).toBeVisible();
});

test('a company still in use cannot be deleted: the reason is shown', async ({ page }) => {
  await loginAs(page, 'admin', '/company/company_detail/kanagawa-auto');
  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('削除できません');
});
