import { engineMessages } from '@fleet/contract';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { apiAs, choose } from '../support/master-data';
import { demoTerminal, sendBatch } from '../support/terminal';

const now = () => new Date().toISOString();

test('prohibiting engine start: vehicle number and password (a wrong one reserves nothing), then 実行待ち → 結果待ち → 実行完了 as the terminal reports', async ({
  page,
}) => {
  const t = demoTerminal(4);
  await loginAs(page, 'tokyo-manager', `/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByTestId('engine-line')).toHaveText('許可中');
  // Software and settings updates are the super admin's only.
  await expect(page.getByRole('heading', { name: 'その他の端末コマンド' })).toHaveCount(0);

  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  const confirm = dialog.getByRole('button', { name: '禁止する' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('車両番号').fill('多摩 303 え 20-35');
  await expect(dialog.getByText(engineMessages.stepUpRequired)).toBeVisible();
  await expect(confirm).toBeDisabled();
  const password = dialog.getByRole('textbox', { name: 'パスワード' });
  await password.fill('not-my-password');
  await confirm.click();
  await expect(dialog.getByText(engineMessages.stepUpFailed)).toBeVisible();
  await expect(password).toHaveAccessibleDescription(new RegExp(engineMessages.stepUpFailed));
  const manager = await apiAs(page.request, 'tokyo-manager');
  expect((await manager.call('/api/car_get_reserve_cmd', { car_data_id: t.imei })).body).toMatchObject({
    state: 0,
    command: null,
  });

  await password.fill(DEMO_PASSWORD);
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');
  await expect(page.getByText('有効期限:')).toBeVisible();

  const fetched = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  const command = fetched.commands.find((c) => c.cmd_type === 'set_engine_boot_permission');
  expect(command?.cmd_info).toMatchObject({ cmd: 1 });
  await expect(page.getByTestId('command-status')).toHaveText('結果待ち');
  await expect(page.getByRole('button', { name: 'コマンドを削除' })).toHaveCount(0);

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
  await loginAs(page, 'tokyo-admin', `/car/car_engine/${t.car_id}/${t.imei}`);
  await page.getByRole('button', { name: 'エンジン始動を許可' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '許可する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち');
  await page.getByRole('button', { name: 'コマンドを削除' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByTestId('command-status')).toHaveText('削除済み');
  const reply = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  expect(reply.commands).toHaveLength(0);
});

/** A time as the datetime-local input wants it, in Japan time. */
const japanLocal = (at: Date) => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 16);

test('a reservation request one minute ahead fires once', async ({ page }) => {
  test.setTimeout(180_000);
  const t = demoTerminal(6);
  await loginAs(page, 'tokyo-manager', `/car/car_engine/${t.car_id}/${t.imei}`);
  await choose(page, 'コマンド', 'エンジン始動許可');
  // The next whole minute.
  const at = new Date(Math.ceil((Date.now() + 5_000) / 60_000) * 60_000 + 60_000);
  await page.getByLabel('実行日時').fill(japanLocal(at));
  await page.getByRole('button', { name: '予約する' }).click();
  await expect(page.getByRole('cell', { name: '実行予定' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /^実行済み/ })).toBeVisible({ timeout: 150_000 });
  // The command slot follows the request list at once (it polls idle slots only every 15 s).
  await expect(page.getByTestId('command-status')).toHaveText('実行待ち', { timeout: 3_000 });
  const reply = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  expect(reply.commands.filter((c) => c.cmd_type === 'set_engine_boot_permission')).toHaveLength(1);
});

test('a scheduled prohibit asks for the vehicle number and the password, like an immediate one', async ({ page }) => {
  const t = demoTerminal(9);
  const carNumber = '品川 308 あ 35-60';
  await loginAs(page, 'tokyo-manager', `/car/car_engine/${t.car_id}/${t.imei}`);
  await page.getByLabel('実行日時').fill(japanLocal(new Date(Date.now() + 86_400_000)));
  await page.getByRole('button', { name: '予約する' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await expect(dialog).toContainText(`${carNumber} のエンジン始動を禁止する予約をします`);
  const confirm = dialog.getByRole('button', { name: '禁止する' });
  await dialog.getByRole('textbox', { name: 'パスワード' }).fill(DEMO_PASSWORD);
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('車両番号').fill(carNumber);
  await confirm.click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: '実行予定' });
  await expect(row).toContainText('エンジン始動禁止');

  // Stepped up: for the next five minutes a prohibit asks for the vehicle number only.
  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  await expect(dialog.getByLabel('車両番号')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'パスワード' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'キャンセル' }).click();

  await row.getByRole('button', { name: '取り消し' }).click();
  await page.getByRole('dialog', { name: '予約リクエストの削除' }).getByRole('button', { name: '取り消す' }).click();
  await expect(page.getByRole('cell', { name: /取り消し: 森田 沙織/ })).toBeVisible();
});

test('an account without エンジン制御権限 sees why in place of the buttons; the super admin also sees the other commands', async ({
  page,
}) => {
  const t = demoTerminal(12);
  await loginAs(page, 'tokyo-staff', `/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByText(engineMessages.noEngineRight)).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'エンジン始動を許可' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'エンジン始動を禁止' })).toHaveCount(0);
  await expect(page.getByLabel('実行日時')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'コマンド履歴' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'その他の端末コマンド' })).toHaveCount(0);
  const staff = await apiAs(page.request, 'tokyo-staff');
  const refused = await staff.call('/api/car_engine_state_reserve', { car_data_id: t.imei, cmd_info: { cmd: 0 } });
  expect(refused).toMatchObject({ status: 403, body: { message: engineMessages.noEngineRight } });

  await loginAs(page, 'admin', `/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByRole('heading', { name: 'その他の端末コマンド' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'エンジン始動を許可' })).toBeVisible();
});
