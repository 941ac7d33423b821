import { expect, loginAs, loginWithForm, test } from '../support/fixtures';
import { waitForMail } from '../support/mailbox';
import { apiAs, uniqueId } from '../support/master-data';

test('notification settings: enable an item with its parameter, validation, saved across reloads', async ({ page }) => {
  await loginAs(page, 'tokyo-staff', '/notify');
  await expect(page.getByRole('heading', { name: '通知設定' })).toBeVisible();
  await page.getByRole('switch', { name: '端末通信途絶' }).check();
  const param = page.getByLabel('途絶時間（分）');
  // Enabled without its parameter: refused under the field.
  await param.fill('');
  await page.getByRole('button', { name: '設定を保存する' }).click();
  await expect(page.getByText('必須項目です')).toBeVisible();
  await param.fill('90');
  await page.getByRole('switch', { name: 'エリア警告' }).check();
  await page.getByRole('button', { name: '設定を保存する' }).click();
  await expect(page.getByText('通知設定を更新しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: '端末通信途絶' })).toBeChecked();
  await expect(page.getByLabel('途絶時間（分）')).toHaveValue('90');
  await expect(page.getByRole('switch', { name: 'エリア警告' })).toBeChecked();
  await expect(page.getByRole('switch', { name: '振動検知' })).not.toBeChecked();
});

test('password reset by mail: request, follow the link, set a new password, log in with it; the link works once', async ({
  page,
  browser,
}) => {
  // An account of its own, so a failure here never leaves a demo account with another password.
  const id = uniqueId('reset');
  const email = `${id}@example.jp`;
  const admin = await apiAs(page.request, 'admin');
  const added = await admin.call('/api/account_add', {
    info: {
      account_id: id,
      name: '再設定 確認',
      email,
      role: 2,
      company_id: 'tokyo-mobility',
      password: 'first-pass-1',
      password_confirm: 'first-pass-1',
    },
  });
  expect(added.status).toBe(200);
  await page.goto('/');
  await page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }).click();
  await expect(page.getByRole('heading', { name: 'パスワード再設定' })).toBeVisible();
  await page.getByRole('textbox', { name: 'メールアドレス', exact: true }).fill(email);
  await page.getByRole('button', { name: '再設定メールを送信' }).click();
  await expect(page.getByText('パスワード再設定用のメールを送信しました', { exact: false })).toBeVisible();

  const mail = await waitForMail(email, (m) => m.text.includes('password_reset?token='));
  const token = /password_reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  await page.goto(`/password_reset?token=${token}`);
  await page.locator('input[name=password]').fill('new-password-2026');
  await page.locator('input[name=password_confirm]').fill('other-password');
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();
  await expect(page.getByText('パスワードが一致しません')).toBeVisible();
  await page.locator('input[name=password_confirm]').fill('new-password-2026');
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();
  await expect(page.getByText('パスワードを変更しました。', { exact: false })).toBeVisible();

  await loginWithForm(page, id, 'new-password-2026');
  await expect(page).toHaveURL(/\/car\/car_list$/);

  const again = await browser.newPage({ baseURL: page.url().replace(/\/car\/car_list$/, '') });
  await again.goto(`/password_reset?token=${token}`);
  await again.locator('input[name=password]').fill('third-password-1');
  await again.locator('input[name=password_confirm]').fill('third-password-1');
  await again.getByRole('button', { name: 'パスワードを変更する' }).click();
  await expect(again.getByRole('alert')).toContainText('このリンクは');
  await again.close();
});
