import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, expect, loginAs, loginWithForm, test } from '../support/fixtures';

/**
 * 二段階認証 in the browser: set up on the own account screen with the QR code's key, then sign in
 * with the code. The codes are computed here from the key the screen shows, as an authenticator app
 * would. A fresh account, so no other test's sign-in meets a code step.
 */
const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });

test('sets up TOTP on the own account screen, then signs in with the 6-digit code', async ({ page }) => {
  const admin = await loginAs(page, 'admin');
  const id = `totp-${Date.now().toString(36)}`;
  const add = await page.request.post('/api/account_add', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      info: {
        account_id: id,
        name: '二段階 認証',
        email: `${id}@example.jp`,
        role: 2,
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
  await expect(page.getByRole('heading', { name: '二段階認証の設定が必要です' })).toBeHidden();
  await expect(page.getByRole('heading', { name: '車両一覧' })).toBeVisible();
});
