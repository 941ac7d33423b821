import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, bodyRows, uniqueId } from '../support/master-data';
import { demoTerminal, drive, sendBatch } from '../support/terminal';

const FORBIDDEN = 'この操作を行う権限がありません。';

/** Whether the list table fits its box and the page without sideways scrolling (runs in the page). */
const fits = () => {
  const table = document.querySelector('table')!;
  const box = table.parentElement!.closest('[class*="ScrollArea-viewport"]') ?? table.parentElement!;
  const last = table.querySelector('thead th:last-child')!.getBoundingClientRect();
  return {
    page: document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth,
    table: table.scrollWidth <= box.clientWidth,
    lastHeader: last.right <= box.getBoundingClientRect().right + 0.5,
  };
};
const noArea = { lat_min: null, lat_max: null, lng_min: null, lng_max: null };

test.describe('the vehicle list at 1366×768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('a terminal that reports without errors is 正常 and found by 正常な車両のみ', async ({ page, request }) => {
    const t = demoTerminal(10);
    await sendBatch(request, t, drive(new Date(Date.now() - 5 * 60_000), 3));
    await loginAs(page, 'admin', '/car/car_list');
    await page.getByLabel('検索キーワード').fill(t.car_id);
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first()).toContainText('正常');
    await expect(bodyRows(page).first()).not.toContainText('状態不明');
    await page.getByRole('switch', { name: '正常な車両のみ' }).check();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first()).toContainText(t.car_id);
  });

  test('a filter that finds nothing says so, not that nothing is registered', async ({ page }) => {
    // D-demo-16, a Kanagawa terminal, has not reported yet when this spec runs (places.spec.ts plays it later,
    // h02.spec.ts plays D-demo-15 before it: the company's first vehicle may be 正常).
    const silent = demoTerminal(16);
    await loginAs(page, 'kanagawa-admin', '/car/car_list');
    await page.getByLabel('検索キーワード').fill(silent.car_id);
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first()).toContainText('状態不明');
    await page.getByRole('switch', { name: '正常な車両のみ' }).check();
    await expect(page.getByText('検索条件に一致するデータがありません。')).toBeVisible();
    await expect(page.getByText('登録されているデータがありません。')).toHaveCount(0);
  });

  test('fits the window without sideways scrolling, with 状態 shown for active vehicles', async ({ page }) => {
    await loginAs(page, 'admin', '/car/car_list');
    // Every row of the first page drawn (the demo fleet, plus what earlier specs registered).
    const range = page.getByTestId('list-range');
    await expect(range).toContainText(/全\d+件中 1〜\d+件を表示/);
    const shown = Number(/〜(\d+)件/.exec((await range.textContent()) ?? '')?.[1]);
    expect(shown).toBeGreaterThanOrEqual(16);
    await expect(bodyRows(page)).toHaveCount(shown);
    // Measured once the live states and last-seen times are drawn (they widen their columns).
    await expect(
      bodyRows(page)
        .filter({ hasText: /\d{4}\/\d{2}\/\d{2}/ })
        .first(),
    ).toBeVisible();
    expect(await page.evaluate(fits)).toEqual({ page: true, table: true, lastHeader: true });
    await expect(page.getByRole('columnheader', { name: '状態', exact: true })).toBeInViewport();
    await expect(bodyRows(page).first().getByText('有効', { exact: true })).toBeInViewport();
    // The longest vehicle number and a long customer name are cut (whole in the tooltip), never widen the row.
    const api = await apiAs(page.request, 'admin');
    const userId = uniqueId('U-fit');
    const carId = uniqueId('C-fit');
    const longName = '長い長い長い長い長い長い長い顧客名';
    await api.addCustomer({ user_id: userId, first_name: '東京都千代田区丸の内一丁目', name: longName });
    const added = await api.call('/api/car_add', {
      info: {
        car_id: carId,
        car_number: '品川 500 て 12-34 ABCDEFGHIJKLMNOPQ',
        user_id: userId,
        car_device_id: null,
        available_data: noArea,
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await page.getByLabel('検索キーワード').fill(carId);
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first().getByText(longName, { exact: false })).toHaveAttribute('title', /長い顧客名$/);
    await expect(bodyRows(page).first()).toContainText('端末未登録');
    expect(await page.evaluate(fits)).toEqual({ page: true, table: true, lastHeader: true });
    await page.getByLabel('検索キーワード').fill('');
    await page.getByRole('button', { name: '検索', exact: true }).click();

    // The columns left out by default come back through 表示項目.
    await page.getByRole('button', { name: '表示項目' }).click();
    await page.getByRole('checkbox', { name: '車種' }).check();
    await expect(page.getByRole('columnheader', { name: /車種/ })).toBeVisible();
  });

  test('every side-menu entry is reachable (scrolled into view), none under ログアウト', async ({ page }) => {
    await loginAs(page, 'admin', '/car/car_list');
    const nav = page.getByRole('navigation', { name: 'メインメニュー' });
    const links = nav.getByRole('link');
    await expect(links).toHaveCount(20);
    for (const link of await links.all()) {
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeInViewport({ ratio: 0.9 });
      // Nothing lies over the entry: the element at its centre is the entry itself.
      const onTop = await link.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && el.contains(hit);
      });
      expect(onTop, await link.innerText()).toBe(true);
    }
    await expect(page.getByRole('button', { name: 'ログアウト' })).toBeInViewport();
  });
});

/** Screens each role may not use: the refusal under the screen's title, and nothing to fill in or press. */
const refusals: Record<string, { path: string; title: string }[]> = {
  'tokyo-staff': [
    { path: '/company/company_add', title: '加盟店登録' },
    { path: '/company/company_list', title: '加盟店一覧' },
    { path: '/account/account_add', title: '管理アカウント登録' },
    { path: '/account/account_list', title: '管理アカウント一覧' },
    { path: '/car/device/list', title: 'GPS端末一覧' },
    { path: '/car/car_edit/C000001', title: '車両編集' },
    { path: '/car/car_groups', title: '拠点・部署' },
  ],
  'tokyo-admin': [
    { path: '/company/company_add', title: '加盟店登録' },
    { path: '/company/company_list', title: '加盟店一覧' },
    { path: '/car/device/add', title: 'GPS端末登録' },
    { path: '/car/car_add', title: '車両登録' },
    { path: '/car/car_user_device_add', title: '新規登録ウィザード' },
    { path: '/notify/mail_outbox', title: '送信メール一覧' },
  ],
  'tokyo-manager': [
    { path: '/car/car_user_add', title: '顧客登録' },
    { path: '/audit_log', title: '操作履歴' },
  ],
};

for (const [account, screens] of Object.entries(refusals)) {
  test(`${account}: screens it may not use show the refusal and no form or register button`, async ({ page }) => {
    await loginAs(page, account);
    for (const s of screens) {
      await page.goto(s.path);
      await expect(page.getByRole('heading', { name: s.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('alert'), s.path).toHaveText(FORBIDDEN);
      const main = page.getByRole('main');
      await expect(main.getByRole('textbox'), s.path).toHaveCount(0);
      await expect(main.getByRole('link', { name: /登録/ }), s.path).toHaveCount(0);
      await expect(main.getByRole('button', { name: /登録/ }), s.path).toHaveCount(0);
      await expect(page.getByText('IDの生成に失敗しました'), s.path).toHaveCount(0);
    }
  });
}

test('each screen has its own tab title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('ログイン | フリートコンソール');
  await loginAs(page, 'admin');
  const titles: [string, string][] = [
    ['/car/car_list', '車両一覧'],
    ['/car/car_user_list', '顧客一覧'],
    ['/car/device/list', 'GPS端末一覧'],
    ['/company/company_list', '加盟店一覧'],
    ['/account/account_list', '管理アカウント一覧'],
    ['/notify', '通知設定'],
    [`/car/car_detail/${demoTerminal(1).car_id}`, '車両詳細'],
  ];
  for (const [path, title] of titles) {
    await page.goto(path);
    await expect(page).toHaveTitle(`${title} | フリートコンソール`);
  }
  // Moving inside the console changes it too.
  await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '車両一覧' }).click();
  await expect(page).toHaveTitle('車両一覧 | フリートコンソール');
});

test('the header is 40 px up to 768 px wide and 60 px above', async ({ page }) => {
  await loginAs(page, 'admin');
  await page.setViewportSize({ width: 768, height: 800 });
  await page.goto('/car/car_list');
  const header = page.locator('header').first();
  await expect.poll(async () => (await header.boundingBox())?.height).toBe(40);
  await page.setViewportSize({ width: 769, height: 800 });
  await expect.poll(async () => (await header.boundingBox())?.height).toBe(60);
});

test('generated ids start with a letter or digit', async ({ page }) => {
  await loginAs(page, 'admin', '/car/device/add');
  const field = page.getByRole('textbox', { name: '端末ID' });
  await expect(field).toHaveValue(/.+/);
  const seen = new Set<string>();
  // "-" and "_" are 2 of 64 characters: 100 ids would almost surely show one at the start before.
  for (let i = 0; i < 100; i++) {
    const before = await field.inputValue();
    seen.add(before);
    await page.getByRole('button', { name: 'IDを再生成' }).click();
    await expect(field).not.toHaveValue(before);
  }
  const bad = [...seen].filter((id) => !/^[A-Za-z0-9]/.test(id));
  expect(bad).toEqual([]);
  expect(seen.size).toBe(100);
});

for (const account of ['tokyo-admin', 'tokyo-manager']) {
  test(`${account} sees the company by its name on the account screens, never its id`, async ({ page }) => {
    await loginAs(page, account);
    for (const path of ['/account/account_add', '/account/account_edit/tokyo-staff']) {
      await page.goto(path);
      await expect(page.getByRole('textbox', { name: '所属会社' }), path).toHaveValue('株式会社東京モビリティサービス');
      const values = await page
        .locator('main input')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(
        values.filter((v) => v === 'tokyo-mobility'),
        path,
      ).toEqual([]);
    }
  });
}
