import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

const now = () => new Date().toISOString();

test('prohibiting engine start: confirmation by vehicle number, then 実行待ち → 結果待ち → 実行完了 as the terminal reports', async ({ page }) => {
  const t = demoTerminal(4);
  await loginAs(page, 'tokyo-manager');
  await page.goto(`/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByTestId('engine-line')).toHaveText('許可中');

  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await expect(dialog.getByRole('button', { name: '禁止する' })).toBeDisabled();
  await dialog.getByLabel('車両番号').fill('多摩 303 え 20-35');
  await dialog.getByRole('button', { name: '禁止する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');
  await expect(page.getByText('有効期限:')).toBeVisible();

  const fetched = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  const command = fetched.commands.find((c) => c.cmd_type === 'set_engine_boot_permission');
  expect(command?.cmd_info).toMatchObject({ cmd: 1 });
  await expect(page.getByTestId('command-status')).toHaveText('結果待ち');
  await expect(page.getByRole('button', { name: '予約を削除' })).toHaveCount(0);

  await sendBatch(page.request, t, [{ type: 'command_result', time: now(), command_id: command!.id, success: true }]);
  await expect(page.getByTestId('command-status')).toHaveText('実行完了（成功）');
  await expect(page.getByTestId('engine-line')).toHaveText('禁止中');
  await expect(page.getByText('実行成功')).toBeVisible();

  // The start/stop log keeps the order and who gave it.
  await page.getByRole('tab', { name: 'データログ' }).click();
  await page.getByRole('tab', { name: 'エンジン', exact: true }).click();
  await expect(page.getByRole('cell', { name: 'エンジン始動禁止（指示）' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: '森田 沙織' }).first()).toBeVisible();
});

test('a command waiting for the terminal can be deleted', async ({ page }) => {
  const t = demoTerminal(5);
  await loginAs(page, 'tokyo-admin');
  await page.goto(`/car/car_engine/${t.car_id}/${t.imei}`);
  await page.getByRole('button', { name: 'エンジン始動を許可' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '許可する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');
  await page.getByRole('button', { name: '予約を削除' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('削除済み');
  const reply = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  expect(reply.commands).toHaveLength(0);
});

test('a reservation request one minute ahead fires once', async ({ page }) => {
  test.setTimeout(180_000);
  const t = demoTerminal(6);
  await loginAs(page, 'tokyo-staff');
  await page.goto(`/car/car_engine/${t.car_id}/${t.imei}`);
  // The next whole minute in Japan time, as datetime-local wants it.
  const at = new Date(Math.ceil((Date.now() + 5_000) / 60_000) * 60_000 + 60_000);
  const local = new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 16);
  await page.getByLabel('実行日時').fill(local);
  await page.getByRole('button', { name: '予約する' }).click();
  await expect(page.getByRole('cell', { name: '実行予定' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /^実行済み/ })).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');
  const reply = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  expect(reply.commands.filter((c) => c.cmd_type === 'set_engine_boot_permission')).toHaveLength(1);
});
