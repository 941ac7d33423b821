import { expect, loginAs, test } from '../support/fixtures';
import { apiAs, bodyRows, choose, runId, uniqueId } from '../support/master-data';

/** Five customers of this run, so search, sort and a second page exist whatever earlier runs left. */
const listPrefix = `U-list-${runId}`;
const listIds = [0, 1, 2, 3, 4].map((i) => `${listPrefix}-${i}`);

test.beforeAll(async ({ request }) => {
  const api = await apiAs(request, 'admin');
  for (const [i, user_id] of listIds.entries()) {
    await api.addCustomer({
      user_id,
      first_name: '一覧',
      name: `テスト${i}`,
      merchant: `販売店${runId}`,
      state: [0, 3, 1, 2, 0][i],
      payment_log: i % 4,
    });
  }
});

test('the customer list pages, searches and sorts on the server', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_user_list');
  await expect(page.getByRole('heading', { name: '顧客一覧' })).toBeVisible();
  const range = page.getByTestId('list-range');
  await expect(range).toContainText('1〜20件を表示');
  const total = Number((await range.textContent())!.match(/全([\d,]+)件/)![1]!.replace(/,/g, ''));
  expect(total).toBeGreaterThanOrEqual(21);
  await expect(bodyRows(page)).toHaveCount(20);
  await page.getByRole('button', { name: '2ページ' }).click();
  await expect(range).toContainText(`全${total.toLocaleString('ja-JP')}件中 21〜`);

  // A demo customer with its company (super admin only), badges of docs/product.md §4 and its vehicle.
  await page.getByLabel('検索キーワード').fill('U-demo-09');
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(range).toHaveText('全1件中 1〜1件を表示');
  await expect(page.getByRole('columnheader', { name: '所属会社' })).toBeVisible();
  await expect(bodyRows(page).first()).toContainText('株式会社東京モビリティサービス');
  await expect(bodyRows(page).first()).toContainText('小林 大輔');
  await expect(bodyRows(page).first()).toContainText('3ヶ月以上');
  await expect(bodyRows(page).first().getByRole('link', { name: 'C000009' })).toBeVisible();

  // Search by customer id (search item 0).
  await page.getByLabel('検索キーワード').fill(listPrefix);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(range).toHaveText('全5件中 1〜5件を表示');
  await expect(bodyRows(page).first()).toContainText(listIds[0]!);

  // 顧客ID ascending is the default; a click turns it to descending (▼).
  await page
    .getByRole('columnheader', { name: /顧客ID/ })
    .getByRole('button')
    .click();
  await expect(page.getByRole('columnheader', { name: /顧客ID/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(bodyRows(page).first()).toContainText(listIds[4]!);

  // Sort by contract state: 契約解除 (3) comes first descending.
  const stateHeader = page.getByRole('columnheader', { name: /契約状態/ });
  await stateHeader.getByRole('button').click();
  await stateHeader.getByRole('button').click();
  await expect(stateHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(bodyRows(page).first()).toContainText(listIds[1]!);
  await expect(bodyRows(page).first()).toContainText('契約解除');

  // Search by merchant (search item 3), and a search that matches nothing says so.
  await choose(page, '検索項目', '販売店');
  await page.getByLabel('検索キーワード').fill(`販売店${runId}`);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(range).toHaveText('全5件中 1〜5件を表示');
  await page.getByLabel('検索キーワード').fill(`該当なし${runId}`);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(page.getByText('検索条件に一致するデータがありません。')).toBeVisible();
});

test('a customer is registered, edited, deleted and restored', async ({ page }) => {
  await loginAs(page, 'admin', '/car/car_user_list');
  await page.getByRole('link', { name: '顧客登録' }).first().click();
  await expect(page).toHaveURL(/\/car\/car_user_add$/);

  const idField = page.getByRole('textbox', { name: '顧客ID' });
  await expect(idField).toHaveValue(/^[A-Za-z0-9_-]{8,16}$/);
  const generated = await idField.inputValue();
  await page.getByRole('button', { name: 'IDを再生成' }).click();
  await expect(idField).not.toHaveValue(generated);
  const userId = uniqueId('U-add');
  await idField.fill(userId);

  // Required fields and the birthday rule speak the spec's Japanese (slashes are fine; 2月30日 is not a day).
  await page.getByRole('textbox', { name: '生年月日' }).fill('1990/02/30');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('必須項目です')).toHaveCount(2);
  await expect(page.getByText('日付の形式が不正です（YYYY-MM-DD）')).toBeVisible();

  await page.getByRole('textbox', { name: '姓' }).fill('試験');
  await page.getByRole('textbox', { name: '名', exact: true }).fill('花子');
  // Typed the way a Japanese IME gives it: full-width digits and slashes, a phone with spaces.
  await page.getByRole('textbox', { name: '生年月日' }).fill('１９９０／１／２');
  await choose(page, '性別', '女性');
  await choose(page, '所属会社', '株式会社東京モビリティサービス（tokyo-mobility）');
  await choose(page, '支払遅延', '1ヶ月以上');
  await page.getByRole('textbox', { name: '販売店' }).fill('テスト販売店');
  await page.getByRole('textbox', { name: '電話番号' }).fill('０３ １２３４ ５６７８');
  await page.getByRole('button', { name: '登録する' }).click();

  await expect(page).toHaveURL(new RegExp(`/car/car_user_detail/${userId}$`));
  const detail = page.locator('main');
  await expect(detail.getByText('1990年01月02日')).toBeVisible();
  await expect(detail.getByText('03-1234-5678')).toBeVisible();
  await expect(detail.getByText('女性')).toBeVisible();
  await expect(detail.getByText('契約中')).toBeVisible();
  await expect(detail.getByText('1ヶ月以上')).toBeVisible();
  await expect(detail.getByText('株式会社東京モビリティサービス')).toBeVisible();
  await expect(detail.getByText('登録されている車両はありません。')).toBeVisible();

  await page.getByRole('link', { name: '編集' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_user_edit/${userId}$`));
  await expect(page.getByRole('textbox', { name: '顧客ID' })).toBeDisabled();
  await expect(page.getByRole('textbox', { name: '生年月日' })).toHaveValue('1990-01-02');
  await page.getByRole('textbox', { name: '販売店' }).fill('変更後の販売店');
  await choose(page, '契約状態', '契約停止');
  await page.getByRole('button', { name: '更新する' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_user_detail/${userId}$`));
  await expect(detail.getByText('変更後の販売店')).toBeVisible();
  await expect(detail.getByText('契約停止')).toBeVisible();

  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
  await expect(detail.getByText('削除済み')).toBeVisible();
  await expect(page.getByRole('link', { name: '編集' })).toHaveCount(0);

  // Hidden from the list until "削除済みも表示" is on.
  await page.goto('/car/car_user_list');
  await page.getByLabel('検索キーワード').fill(userId);
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(page.getByText('検索条件に一致するデータがありません。')).toBeVisible();
  await page.getByRole('switch', { name: '削除済みも表示' }).check();
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page).first()).toContainText('削除済み');
  await bodyRows(page).first().getByRole('link', { name: userId }).click();

  await page.getByRole('button', { name: '復元', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: '復元する' }).click();
  await expect(detail.getByText('有効', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: '編集' })).toBeVisible();
});

test('the detail falls back to the customer last opened when the URL has no id', async ({ page }) => {
  await loginAs(page, 'tokyo-manager', '/car/car_user_detail/U-demo-02');
  await expect(page.getByText('佐藤 花子（U-demo-02）')).toBeVisible();
  await page.goto('/car/car_user_detail');
  await expect(page.getByText('佐藤 花子（U-demo-02）')).toBeVisible();
  // Its vehicle links to the vehicle detail.
  await expect(page.getByRole('link', { name: 'C000002' })).toHaveAttribute('href', /\/car\/car_detail\/C000002/);
});

test('a common account sees customers but no register, edit or delete buttons', async ({ page }) => {
  await loginAs(page, 'tokyo-staff', '/car/car_user_list');
  await expect(bodyRows(page).first()).toBeVisible();
  await expect(page.getByRole('link', { name: '顧客登録' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: '所属会社' })).toHaveCount(0);
  await page.getByLabel('検索キーワード').fill('U-demo-01');
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await bodyRows(page).first().getByRole('link', { name: 'U-demo-01' }).click();
  await expect(page.getByText('山田 太郎（U-demo-01）')).toBeVisible();
  await expect(page.getByText('1978年04月12日')).toBeVisible();
  await expect(page.getByRole('link', { name: '編集' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '削除', exact: true })).toHaveCount(0);
  await page.goto('/car/car_user_edit/U-demo-01');
  await expect(page.getByRole('alert')).toHaveText('この操作を行う権限がありません。');
});

test("another company's admin cannot open a Tokyo customer", async ({ page }) => {
  await loginAs(page, 'kanagawa-admin', '/car/car_user_list');
  await page.getByLabel('検索キーワード').fill('U-demo-');
  await page.getByRole('button', { name: '検索', exact: true }).click();
  await expect(page.getByTestId('list-range')).toHaveText('全4件中 1〜4件を表示');
  await expect(bodyRows(page).first()).toContainText('U-demo-13');
  await page.goto('/car/car_user_detail/U-demo-01');
  await expect(page.getByRole('alert')).toHaveText('対象の情報が見つかりません。');
  await expect(page.getByRole('link', { name: '編集' })).toHaveCount(0);
});

test('a customer still on a vehicle is not deleted, and the dialog says why', async ({ page }) => {
  await loginAs(page, 'tokyo-manager', '/car/car_user_detail/U-demo-03');
  await page.getByRole('button', { name: '削除', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '顧客の削除' });
  await dialog.getByRole('button', { name: '削除する' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'この顧客は車両に登録されているため削除できません。先に車両を削除してください。',
  );
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: '削除', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: '登録車両' })).toContainText('C000003');
});
