import { expect, loginAs, test } from '../support/fixtures';

// docs/console.md: every invalid field shows its message at once.
test('パスワード変更 flags an empty 現在のパスワード together with the other fields', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', '/account/password_reset');
  await page.getByLabel('パスワード（確認）').fill('different-1');
  await page.getByRole('button', { name: '変更する' }).click();
  // 現在のパスワード and パスワード are empty, the confirmation differs: three messages at once.
  await expect(page.getByText('必須項目です')).toHaveCount(2);
  await expect(page.getByText('パスワードが一致しません')).toBeVisible();
  await expect(page.getByLabel('現在のパスワード')).toHaveAccessibleDescription(/必須項目です/);
});

test('clearing the generated id keeps every other field’s message', async ({ page }) => {
  await loginAs(page, 'admin', '/account/account_add');
  const id = page.getByRole('textbox', { name: 'アカウントID' });
  await expect(id).not.toHaveValue('');
  await page.getByRole('button', { name: '登録する' }).click();
  const name = page.getByRole('textbox', { name: '氏名' });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  // Cleared, then straight to the button (the click is what blurs the field).
  await id.fill('');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('textbox', { name: 'メールアドレス' })).toHaveAttribute('aria-invalid', 'true');
});
