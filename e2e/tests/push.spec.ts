import { createECDH } from 'node:crypto';
import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, choose, uniqueId } from '../support/master-data';
import { demoTerminal, sendBatch } from '../support/terminal';

const menu = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: 'メインメニュー' });

test('notification channels: push unavailable in this browser, mail/push per item saved, validation', async ({
  page,
}) => {
  // A browser without the Push API (the test browser cannot reach a push service anyway).
  await page.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await loginAs(page, 'tokyo-manager', '/notify');
  const control = page.getByLabel('ブラウザ通知');
  await expect(control.getByTestId('push-state')).toHaveText('利用不可');
  await expect(control.getByText('このブラウザはプッシュ通知に対応していません')).toBeVisible();
  await expect(control.getByRole('button', { name: 'このブラウザで通知を受け取る' })).toBeDisabled();

  // Channels follow the item's switch; an item on needs at least one.
  await expect(page.getByRole('checkbox', { name: '振動検知：プッシュ' })).toBeDisabled();
  await page.getByRole('switch', { name: '振動検知' }).check();
  await expect(page.getByRole('checkbox', { name: '振動検知：メール' })).toBeChecked();
  await page.getByRole('checkbox', { name: '振動検知：メール' }).uncheck();
  await page.getByRole('button', { name: '設定を保存する' }).click();
  await expect(page.getByText('メールまたはプッシュを1つ以上選択してください')).toBeVisible();
  await page.getByRole('checkbox', { name: '振動検知：プッシュ' }).check();
  await page.getByRole('checkbox', { name: '振動検知：メール' }).check();
  await page.getByRole('switch', { name: 'エリア警告' }).check();
  await page.getByRole('checkbox', { name: 'エリア警告：メール' }).uncheck();
  await page.getByRole('checkbox', { name: 'エリア警告：プッシュ' }).check();
  await page.getByRole('button', { name: '設定を保存する' }).click();
  await expect(page.getByText('通知設定を更新しました。')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('checkbox', { name: '振動検知：メール' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: '振動検知：プッシュ' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'エリア警告：メール' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'エリア警告：プッシュ' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'センサーエラー：メール' })).toBeChecked();
});

test('notification history: a vibration goes by mail and push; the rows show channel, vehicle, recipient and state', async ({
  page,
}) => {
  const manager = await apiAs(page.request, 'tokyo-manager');
  const settings = await manager.call('/api/account_notify', { account_id: 'tokyo-manager' });
  const info = settings.body.notify as Record<string, unknown> & { channels: Record<string, unknown> };
  const saved = await manager.call('/api/account_notify_update', {
    account_id: 'tokyo-manager',
    info: {
      ...info,
      vibration: { enable: true, param: 1.5 },
      channels: { ...info.channels, vibration: { mail: true, push: true } },
    },
  });
  expect(saved.status).toBe(200);
  // A subscription as a browser would send it; its push service is not reachable from here.
  const p256dh = createECDH('prime256v1').generateKeys('base64url');
  const endpoint = `https://push.invalid/${uniqueId('sub')}`;
  const sub = await manager.call('/api/push_subscribe', {
    endpoint,
    keys: { p256dh, auth: Buffer.alloc(16, 5).toString('base64url') },
  });
  expect(sub.status).toBe(200);
  const terminal = demoTerminal(3);
  await sendBatch(page.request, terminal, [{ type: 'sensor', time: new Date().toISOString(), vibration: 9.5 }]);

  await loginAs(page, 'tokyo-manager', '/notify');
  await menu(page).getByRole('link', { name: '通知履歴' }).click();
  await expect(page.getByRole('heading', { name: '通知履歴' })).toBeVisible();
  // History rows are never deleted: no 削除済みも表示 switch (the vehicle list has one).
  await expect(page.getByLabel('検索キーワード')).toBeVisible();
  await expect(page.getByRole('switch', { name: '削除済みも表示' })).toHaveCount(0);
  const rows = page.getByRole('row').filter({ hasText: terminal.car_id }).filter({ hasText: '振動検知' });
  const push = rows.filter({ hasText: 'プッシュ' });
  await expect(push).toHaveCount(1);
  await expect(push).toContainText('森田 沙織'); // the account's name and the push service's host
  await expect(push).toContainText('push.invalid');
  // The push service cannot be reached: the row waits for a retry and shows why, as a category (never the socket error).
  await expect(push).toContainText('送信待ち');
  await expect(push).toContainText(/名前解決できません|接続できません|タイムアウト/, { timeout: 30_000 });
  const mail = rows.filter({ hasText: 'メール' });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText('送信済み', { timeout: 20_000 });

  // Search by vehicle ID narrows the list.
  await choose(page, '検索項目', '車両ID');
  await page.getByLabel('検索キーワード').fill(terminal.car_id);
  await page.getByRole('button', { name: '検索' }).click();
  await expect(push).toHaveCount(1);
  await expect(page.locator('tbody tr').filter({ hasNotText: terminal.car_id })).toHaveCount(0);
});

test('notification history: a common user has no menu entry and the call is refused', async ({ page }) => {
  await loginAs(page, 'tokyo-staff', '/notify');
  await expect(menu(page).getByRole('link', { name: '通知設定' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: '通知履歴' })).toHaveCount(0);
  const staff = await apiAs(page.request, 'tokyo-staff');
  expect((await staff.call('/api/notify_history_list', {})).status).toBe(403);
});
