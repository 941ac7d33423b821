import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { apiAs } from '../support/master-data';
import { demoTerminal, sendBatch } from '../support/terminal';

// docs/engine-control.md: after a prohibit the command history follows the live state together with the
// status panel (not at its next 10 s poll), and its cells stay on one line.
test('the command history follows the status panel at once and its cells do not wrap', async ({ page }) => {
  const t = demoTerminal(8); // Tokyo: the Kanagawa vehicles must never report (operator-screens.spec.ts)
  const now = () => new Date().toISOString();
  await loginAs(page, 'admin');
  const api = await apiAs(page.request, 'admin');
  const carNumber = ((await api.call('/api/car_get_detail', { car_id: t.car_id })).body as { car_number: string })
    .car_number;
  await page.goto(`/car/car_engine/${t.car_id}/${t.imei}`);
  await expect(page.getByTestId('engine-line')).toHaveText('許可中');

  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await dialog.getByLabel('車両番号').fill(carNumber);
  await dialog.getByRole('textbox', { name: 'パスワード' }).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: '禁止する' }).click();
  await expect(dialog).toBeHidden();

  const history = page.getByRole('table', { name: 'コマンド履歴' });
  const firstRow = history.getByRole('row').nth(1);
  await expect(firstRow).toContainText('実行待ち');

  const fetched = await sendBatch(page.request, t, [{ type: 'connection', time: now(), state: 'connected' }]);
  const command = fetched.commands.find((c) => c.cmd_type === 'set_engine_boot_permission');
  await sendBatch(page.request, t, [{ type: 'command_result', time: now(), command_id: command!.id, success: true }]);
  await expect(page.getByTestId('engine-line')).toHaveText('禁止中');
  // The history agrees within moments of the panel, well before its 10 s poll.
  await expect(firstRow).toContainText('実行完了（成功）', { timeout: 3000 });

  // One line per cell: the date (2026/11/24 08:07) is never broken in two.
  const dateCell = firstRow.getByRole('cell').first();
  await expect(dateCell).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
  // The row may be taller (the command's type goes under its content); the date's own text is one line.
  const [textHeight, lineHeight] = await dateCell.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return [range.getBoundingClientRect().height, parseFloat(getComputedStyle(el).lineHeight)];
  });
  expect(textHeight).toBeLessThan(lineHeight * 1.5);
  expect(await dateCell.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
});
