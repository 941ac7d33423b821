import { accountMessages, cancelReasons, engineMessages } from '@fleet/contract';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, loginAs, loginWithForm, test } from '../support/fixtures';
import { apiAs, choose, uniqueId } from '../support/master-data';
import { demoTerminal } from '../support/terminal';

const engineRight = (page: Page) => page.getByRole('switch', { name: /エンジン制御権限/ });
const detailValue = (page: import('@playwright/test').Page, label: string) =>
  page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');

test('a manager registers an account (generated id, roles 1-2 only), edits it, deletes and restores it', async ({
  page,
}) => {
  await loginAs(page, 'tokyo-manager', '/account/account_list');
  await expect(page.getByRole('cell', { name: 'tokyo-staff', exact: true })).toBeVisible();
  // A manager never sees the company's admin (role 0) accounts.
  await expect(page.getByRole('cell', { name: 'tokyo-admin', exact: true })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'エンジン制御権限' })).toBeVisible();

  await page.getByRole('link', { name: '管理アカウント登録' }).first().click();
  const idBox = page.getByRole('textbox', { name: 'アカウントID' });
  await expect(idBox).toHaveValue(/^[A-Za-z0-9_-]{8,16}$/);
  await page.getByRole('combobox', { name: '権限', exact: true }).click();
  await expect(page.getByRole('option', { name: '管理者', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: '一般', exact: true }).click();
  // エンジン制御権限 follows the role (on for managers, off for common accounts) until it is set by hand.
  await expect(engineRight(page)).not.toBeChecked();
  await choose(page, '権限', 'マネージャー');
  await expect(engineRight(page)).toBeChecked();
  await choose(page, '権限', '一般');
  await expect(engineRight(page)).not.toBeChecked();

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
  await expect(detailValue(page, 'エンジン制御権限')).toHaveText('なし');

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
  await loginAs(page, 'admin', '/account/account_list');
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

test("changing one's own password needs the current one", async ({ page }) => {
  const api = await apiAs(page.request, 'admin');
  const id = uniqueId('pw');
  const add = await api.call('/api/account_add', {
    info: {
      account_id: id,
      name: 'パスワード 確認',
      email: `${id}@example.jp`,
      role: 2,
      company_id: 'tokyo-mobility',
      password: 'first-pass-1',
      password_confirm: 'first-pass-1',
    },
  });
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

test('the company admin grants エンジン制御権限 on the edit screen, the staff then sees the buttons; taking it back cancels what the staff reserved', async ({
  page,
}) => {
  const t = demoTerminal(11);
  const engineScreen = `/car/car_engine/${t.car_id}/${t.imei}`;
  const admin = await apiAs(page.request, 'tokyo-admin');
  const id = uniqueId('staff');
  const info = { account_id: id, name: '権限 確認', email: `${id}@example.jp`, role: 2, company_id: 'tokyo-mobility' };
  expect(
    (
      await admin.call('/api/account_add', {
        info: { ...info, password: DEMO_PASSWORD, password_confirm: DEMO_PASSWORD },
      })
    ).status,
  ).toBe(200);

  await loginAs(page, id, engineScreen);
  await expect(page.getByText(engineMessages.noEngineRight).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'エンジン始動を許可' })).toHaveCount(0);

  await loginAs(page, 'tokyo-admin');
  // One's own right is shown, not changeable.
  await page.goto('/account/account_edit/tokyo-admin');
  await expect(engineRight(page)).toBeChecked();
  await expect(engineRight(page)).toBeDisabled();
  await expect(page.getByText(accountMessages.selfEngineControl)).toBeVisible();

  await page.goto(`/account/account_detail/${id}`);
  await expect(detailValue(page, 'エンジン制御権限')).toHaveText('なし');
  await page.getByRole('link', { name: '編集' }).click();
  await expect(engineRight(page)).not.toBeChecked();
  await engineRight(page).click();
  await expect(engineRight(page)).toBeChecked();
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page.getByRole('heading', { name: '管理アカウント詳細' })).toBeVisible();
  await expect(detailValue(page, 'エンジン制御権限')).toHaveText('あり');

  await loginAs(page, id, engineScreen);
  await expect(page.getByText(engineMessages.noEngineRight)).toHaveCount(0);
  await page.getByRole('button', { name: 'エンジン始動を許可' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '許可する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');

  expect((await admin.call('/api/account_update', { info: { ...info, engine_control: false } })).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId('command-status')).toHaveText('取消（権限なし）');
  await expect(page.getByTestId('cancel-reason')).toContainText(cancelReasons.noRight);
  await expect(page.getByText(engineMessages.noEngineRight).first()).toBeVisible();
});
