import { expect, loginAs, loginWithForm, test } from '../support/fixtures';
import { apiAs, choose, uniqueId } from '../support/master-data';

test('a manager registers an account (generated id, roles 1-2 only), edits it, deletes and restores it', async ({ page }) => {
  await loginAs(page, 'tokyo-manager');
  await page.goto('/account/account_list');
  await expect(page.getByRole('cell', { name: 'tokyo-staff', exact: true })).toBeVisible();
  // A manager never sees the company's admin (role 0) accounts.
  await expect(page.getByRole('cell', { name: 'tokyo-admin', exact: true })).toHaveCount(0);

  await page.getByRole('link', { name: '管理アカウント登録' }).first().click();
  const idBox = page.getByRole('textbox', { name: 'アカウントID' });
  await expect(idBox).toHaveValue(/^[A-Za-z0-9_-]{8,16}$/);
  await page.getByRole('combobox', { name: '権限', exact: true }).click();
  await expect(page.getByRole('option', { name: '管理者', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: '一般', exact: true }).click();

  const name = `テスト 花子${uniqueId('n').slice(-4)}`;
  const email = `${uniqueId('acct')}@example.jp`;
  await page.getByRole('textbox', { name: '氏名' }).fill(name);
  await page.getByRole('textbox', { name: 'メールアドレス' }).fill('not-an-address');
  await page.locator('input[name=password]').fill('short');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('メールアドレスの形式が不正です')).toBeVisible();
  await expect(page.getByText('8文字以上で入力してください')).toBeVisible();

  await page.getByRole('textbox', { name: 'メールアドレス' }).fill(email);
  await page.locator('input[name=password]').fill('account-pass-1');
  await page.locator('input[name=password_confirm]').fill('account-pass-1');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { name: '管理アカウント詳細' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  await page.getByRole('link', { name: '編集' }).click();
  await page.getByRole('textbox', { name: '氏名' }).fill(`${name}（更新）`);
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page.getByText(`${name}（更新）`).first()).toBeVisible();

  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByText('削除済み').first()).toBeVisible();
  const gone = await page.request.post('/api/login', { data: { username: email, password: 'account-pass-1' } });
  expect(gone.status()).toBe(401);
  await page.getByRole('button', { name: '復元', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '復元する' }).click();
  await expect(page.getByRole('button', { name: '削除', exact: true })).toBeVisible();
});

test('the account list searches by e-mail and sorts, and the super admin filters by company', async ({ page }) => {
  await loginAs(page, 'admin');
  await page.goto('/account/account_list');
  await choose(page, '検索項目', 'メールアドレス');
  await page.getByLabel('検索キーワード').fill('kanagawa-auto');
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page.getByRole('cell', { name: 'kanagawa-admin', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'tokyo-staff', exact: true })).toHaveCount(0);
  await page.getByLabel('キーワードを消去').click();
  await page.getByRole('button', { name: /氏名/ }).click();
  await expect(page.getByRole('columnheader', { name: /氏名/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('combobox', { name: '加盟店' }).click();
  await page.getByRole('option', { name: /神奈川オートリース/ }).click();
  await expect(page.getByRole('cell', { name: 'kanagawa-admin', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toHaveCount(0);
});

test('a common account cannot open the account screens, and the server refuses its calls', async ({ page }) => {
  await loginAs(page, 'tokyo-staff');
  const api = await apiAs(page.request, 'tokyo-staff');
  expect((await api.call('/api/account_list', {})).status).toBe(403);
  await page.goto('/account/account_list');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'tokyo-manager', exact: true })).toHaveCount(0);
});

test('changing one\'s own password needs the current one', async ({ page }) => {
  const api = await apiAs(page.request, 'admin');
  const id = uniqueId('pw');
  const add = await api.call('/api/account_add', { info: { account_id: id, name: 'パスワード 確認', email: `${id}@example.jp`, role: 2, company_id: 'tokyo-mobility', password: 'first-pass-1', password_confirm: 'first-pass-1' } });
  expect(add.status).toBe(200);
  await loginWithForm(page, id, 'first-pass-1');
  await expect(page).toHaveURL(/\/car\/car_list$/);
  await page.goto('/account/password_reset');
  await page.locator('input[name=current_password]').fill('wrong-pass-1');
  await page.locator('input[name=password]').fill('second-pass-2');
  await page.locator('input[name=password_confirm]').fill('second-pass-2');
  await page.getByRole('button', { name: '変更する' }).click();
  await expect(page.getByText('現在のパスワードが正しくありません。').first()).toBeVisible();
  await page.locator('input[name=current_password]').fill('first-pass-1');
  await page.getByRole('button', { name: '変更する' }).click();
  await expect(page.getByText('パスワードを変更しました。')).toBeVisible();
  const login = await page.request.post('/api/login', { data: { username: id, password: 'second-pass-2' } });
  expect(login.status()).toBe(200);
});
