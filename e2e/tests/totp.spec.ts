import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, expect, loginAs, loginWithForm, test } from '../support/fixtures';
import { demoTerminal } from '../support/terminal';

/**
 * 二段階認証 in the browser: set up on the own account screen with the QR code's key (its recovery
 * codes shown once), then sign in with the code, which counts as the step-up before a prohibit, and
 * with a recovery code. The codes are computed here from the key the screen shows, as an authenticator
 * app would. A fresh account, so no other test's sign-in meets a code step.
 */
const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });

test('sets up TOTP on the own account screen (recovery codes shown once), signs in with the code (no password again before a prohibit) and with a recovery code', async ({
  page,
}) => {
  // Three sign-ins, the setup and a prohibit dialog: longer than one screen's test.
  test.slow();
  const admin = await loginAs(page, 'admin');
  const id = `totp-${Date.now().toString(36)}`;
  const add = await page.request.post('/api/account_add', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      info: {
        account_id: id,
        name: '二段階 認証',
        email: `${id}@example.jp`,
        role: 1,
        company_id: 'tokyo-mobility',
        password: DEMO_PASSWORD,
        password_confirm: DEMO_PASSWORD,
      },
    },
  });
  expect(add.status(), await add.text()).toBe(200);
  await page.evaluate(() => localStorage.clear());

  await loginWithForm(page, id);
  await expect(page).toHaveURL(/\/car\/car_list$/);
  await page.goto(`/account/account_detail/${id}`);
  const section = page.getByRole('region', { name: '二段階認証' });
  await expect(section.getByText('無効', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: '二段階認証を設定する' }).click();
  await expect(section.getByRole('img', { name: '二段階認証の設定用QRコード' })).toBeVisible();
  const secret = (await section.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.screenshot({ path: '/tmp/totp-setup.png', fullPage: true });

  await section.getByLabel(/確認コード/).fill('000000' === codeAt(secret, Date.now()) ? '111111' : '000000');
  await section.getByRole('button', { name: '確認して有効にする' }).click();
  await expect(section.getByText('確認コードが正しくありません。').first()).toBeVisible();
  await section.getByLabel(/確認コード/).fill(codeAt(secret, Date.now()));
  await section.getByRole('button', { name: '確認して有効にする' }).click();
  await expect(section.getByText('二段階認証を有効にしました。次回のログインから確認コードが必要です。')).toBeVisible();
  await expect(section.getByText('有効', { exact: true })).toBeVisible();
  // The recovery codes, once: ten of them, to copy or download, gone once kept.
  const panel = section.getByTestId('recovery-codes-panel');
  const codes = (await panel.getByTestId('recovery-codes').innerText()).split(/\s+/).filter(Boolean);
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  await page.screenshot({ path: '/tmp/totp-recovery-codes.png', fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'ダウンロード' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('recovery-codes.txt');
  await panel.getByRole('button', { name: '保管しました' }).click();
  await expect(panel).toBeHidden();
  await expect(section.getByText(codes[0]!)).toHaveCount(0);
  await expect(section.getByTestId('recovery-left')).toHaveText('未使用のリカバリーコード: 10個');

  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/$/);
  await loginWithForm(page, id);
  const code = page.getByLabel('確認コード（6桁）');
  await expect(code).toBeVisible();
  await expect(page.getByText('二段階認証が有効なアカウントです。')).toBeVisible();
  await page.screenshot({ path: '/tmp/totp-login-code.png', fullPage: true });
  // The code of the next 30-second step: the one used to enable is spent, and the server takes one step of drift.
  await code.fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: '確認してログイン' }).click();
  await expect(page).toHaveURL(/\/car\/car_list$/);

  // The sign-in just took the password and a code: a prohibit does not ask for them again.
  const t = demoTerminal(3);
  await page.goto(`/car/car_engine/${t.car_id}/${t.imei}`);
  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await expect(dialog.getByLabel('車両番号')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'パスワード' })).toHaveCount(0);
  await expect(dialog.getByLabel(/確認コード/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'キャンセル' }).click();

  // A recovery code in place of the app's code, once.
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/$/);
  await loginWithForm(page, id);
  await page.getByRole('button', { name: 'リカバリーコードを使う' }).click();
  await page.getByLabel('リカバリーコード').fill(codes[0]!.toUpperCase());
  await page.getByRole('button', { name: '確認してログイン' }).click();
  await expect(page).toHaveURL(/\/car\/car_list$/);
  await page.goto(`/account/account_detail/${id}`);
  await expect(page.getByRole('region', { name: '二段階認証' }).getByTestId('recovery-left')).toHaveText(
    '未使用のリカバリーコード: 9個',
  );
});

test('an account of a company that requires TOTP sees only the setup until it is done', async ({ page }) => {
  const admin = await loginAs(page, 'admin');
  const call = async (path: string, data: unknown) => {
    const res = await page.request.post(path, { headers: { authorization: `Bearer ${admin.token}` }, data });
    expect(res.status(), await res.text()).toBe(200);
  };
  const suffix = Date.now().toString(36);
  const company = `totp-co-${suffix}`;
  const id = `totp-req-${suffix}`;
  await call('/api/company_add', { info: { company_id: company, company_name: `二段階必須 ${suffix}` } });
  await call('/api/account_add', {
    info: {
      account_id: id,
      name: '必須 花子',
      email: `${id}@example.jp`,
      role: 2,
      company_id: company,
      password: DEMO_PASSWORD,
      password_confirm: DEMO_PASSWORD,
    },
  });
  await call('/api/company_totp_policy_update', { company_id: company, require_totp: true });
  await page.evaluate(() => localStorage.clear());

  await loginWithForm(page, id);
  await expect(page.getByRole('heading', { name: '二段階認証の設定が必要です' })).toBeVisible();
  await expect(page.getByText('所属会社の設定により、このアカウントでは二段階認証が必須です。')).toBeVisible();
  await page.getByRole('button', { name: '二段階認証を設定する' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  await page.screenshot({ path: '/tmp/totp-setup-required.png', fullPage: true });
  await page.getByLabel(/確認コード/).fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: '確認して有効にする' }).click();
  // Its recovery codes first, once; the screens open once they are kept.
  const panel = page.getByTestId('recovery-codes-panel');
  await expect(panel.getByTestId('recovery-codes')).toContainText(/^[a-z2-7]{4}-/);
  await panel.getByRole('button', { name: '保管しました' }).click();
  await expect(page.getByRole('heading', { name: '二段階認証の設定が必要です' })).toBeHidden();
  await expect(page.getByRole('heading', { name: '車両一覧' })).toBeVisible();
});
