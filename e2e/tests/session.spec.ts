import { DEMO_PASSWORD, expect, loginAs, loginWithForm, STORE_KEY, test } from '../support/fixtures';

const MISSING = '有効なセッション情報が見つかりません。ログインしなおしてください。';
const INVALID = 'ログイン情報が失効しました。お手数ですが、再度ログインください。';

/** The side menu of docs/product.md §2/§6, per kind of account. */
const menus: Record<string, string[]> = {
  admin: [
    '車両一覧',
    '車両マップ',
    'レポート',
    'ゾーン',
    '拠点・部署',
    'アラート',
    '車両登録',
    '新規登録ウィザード',
    '顧客一覧',
    '顧客登録',
    'GPS端末一覧',
    'GPS端末登録',
    '加盟店一覧',
    '加盟店登録',
    '管理アカウント一覧',
    '管理アカウント登録',
    '通知設定',
    '通知履歴',
    'Webhook設定',
    '運行判定の設定',
  ],
  'tokyo-admin': [
    '車両一覧',
    '車両マップ',
    'レポート',
    'ゾーン',
    '拠点・部署',
    'アラート',
    '顧客一覧',
    '管理アカウント一覧',
    '管理アカウント登録',
    '通知設定',
    '通知履歴',
    'Webhook設定',
    '運行判定の設定',
  ],
  'tokyo-manager': [
    '車両一覧',
    '車両マップ',
    'レポート',
    'ゾーン',
    '拠点・部署',
    'アラート',
    '顧客一覧',
    '管理アカウント一覧',
    '管理アカウント登録',
    '通知設定',
    '通知履歴',
  ],
  'tokyo-staff': ['車両一覧', '車両マップ', 'レポート', 'ゾーン', 'アラート', '顧客一覧', '通知設定'],
};

for (const [account, expected] of Object.entries(menus)) {
  test(`${account} logs in with the form and sees exactly its menu`, async ({ page }) => {
    await loginWithForm(page, account);
    await expect(page).toHaveURL(/\/car\/car_list$/);
    const nav = page.getByRole('navigation', { name: 'メインメニュー' });
    await expect(nav.getByRole('link').first()).toBeVisible();
    await expect(nav.getByRole('link')).toHaveText(expected);
    await expect(page.getByRole('button', { name: 'ログアウト' })).toBeVisible();
  });
}

test('a wrong password shows the login-failed message and stores no session', async ({ page }) => {
  await loginWithForm(page, 'tokyo-staff', `${DEMO_PASSWORD}-wrong`);
  await expect(page.getByRole('alert')).toHaveText('ログインに失敗しました。ログイン情報を確認してください。');
  await expect(page).toHaveURL(/\/$/);
  const stored = await page.evaluate((k) => localStorage.getItem(k), STORE_KEY);
  expect(stored === null || JSON.parse(stored).state.token === null).toBe(true);
});

test('empty fields show the required message under each field', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(2);
});

test('no stored session lands on /warning with the missing-session message', async ({ page }) => {
  await page.goto('/car/car_list');
  await expect(page).toHaveURL(/\/warning/);
  await expect(page.getByTestId('warning-message')).toHaveText(MISSING);
});

test('a tampered token lands on /warning with the invalid-token message', async ({ page }) => {
  await loginAs(page, 'tokyo-manager');
  await page.evaluate((k) => {
    const s = JSON.parse(localStorage.getItem(k)!);
    s.state.token = `${s.state.token.slice(0, -4)}AAAA`;
    localStorage.setItem(k, JSON.stringify(s));
  }, STORE_KEY);
  await page.goto('/car/car_list');
  await expect(page).toHaveURL(/\/warning/);
  await expect(page.getByTestId('warning-message')).toContainText(INVALID);
});

test('an unknown URL shows the 404 page with a way back to the vehicle list', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'このページは存在しません。' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'トップへ戻る' })).toHaveAttribute('href', '/car/car_list');
});

test('logout clears the session and the old token stops working', async ({ page }) => {
  const login = await loginAs(page, 'tokyo-staff', '/car/car_list');
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
  const token = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)!).state.token, STORE_KEY);
  expect(token).toBeNull();
  const res = await page.request.post('/api/me', { data: {}, headers: { authorization: `Bearer ${login.token}` } });
  expect(res.status()).toBe(401);
  await page.goto('/car/car_list');
  await expect(page).toHaveURL(/\/warning/);
});
