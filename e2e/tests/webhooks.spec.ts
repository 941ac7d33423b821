import { expect, loginAs, test } from '../support/fixtures';
import { uniqueId } from '../support/master-data';

test('webhooks: a company admin adds a receiver (validation in Japanese, secret shown once), edits, sees the log, deletes', async ({
  page,
}) => {
  await loginAs(page, 'tokyo-admin', '/notify');
  await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'Webhook設定' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook設定' })).toBeVisible();

  await page.getByRole('button', { name: 'Webhookを追加' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('送信先URL').fill('ftp://example.jp/hook');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('URLの形式が不正です', { exact: false })).toBeVisible();
  await expect(dialog.getByText('通知するイベントを1つ以上選択してください')).toBeVisible();

  // A receiver on this machine or an internal network is refused (docs/security.md "Outbound calls").
  await dialog.getByLabel('送信先URL').fill('http://0x7f000001:8080/hook');
  await dialog.getByRole('checkbox', { name: 'コマンドの状態変化（結果を含む）' }).check();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('内部ネットワークのアドレス', { exact: false })).toBeVisible();

  const url = `https://hooks.example.jp/${uniqueId('wh')}`;
  await dialog.getByLabel('送信先URL').fill(url);
  await dialog.getByRole('checkbox', { name: 'コマンドの状態変化（結果を含む）' }).check();
  await dialog.getByRole('checkbox', { name: '通知：エリア警告' }).check();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByTestId('webhook-secret')).toHaveText(/^whsec_[0-9a-f]{64}$/);
  await dialog.getByRole('button', { name: 'OK' }).click();

  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('コマンドの状態変化（結果を含む）');
  await expect(row).toContainText('有効');
  await row.getByRole('button', { name: '編集' }).click();
  await page.getByRole('dialog').getByRole('switch', { name: '有効' }).uncheck({ force: true });
  await page.getByRole('dialog').getByRole('button', { name: '保存' }).click();
  await expect(row).toContainText('無効');

  await page.getByRole('link', { name: 'Webhook送信履歴' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook送信履歴' })).toBeVisible();
  await page.goBack();

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('row').filter({ hasText: url }).getByRole('button', { name: '削除' }).click();
  await expect(page.getByRole('row').filter({ hasText: url })).toHaveCount(0);
});

test('webhooks: a manager has no menu entry and the screen refuses', async ({ page }) => {
  await loginAs(page, 'tokyo-manager', '/notify');
  await expect(
    page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '通知設定' }),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'Webhook設定' }),
  ).toHaveCount(0);
  await page.goto('/notify/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhook設定' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Webhookを追加' })).toHaveCount(0);
});
