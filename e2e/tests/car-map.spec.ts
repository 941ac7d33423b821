import { fileURLToPath } from 'node:url';
import { expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

const SCREENSHOT = fileURLToPath(new URL('../../docs/screenshots/car-map-1366.png', import.meta.url));

type Terminal = ReturnType<typeof demoTerminal>;

/** One report putting a demo vehicle at a place in a state. */
const report = (lat: number, lng: number, o: { running?: 'on' | 'off'; line?: string; connection?: string } = {}) => {
  const time = new Date().toISOString();
  return [
    { type: 'engine', time, running: o.running ?? 'on', engine_line: o.line ?? 'connected' },
    { type: 'connection', time, state: o.connection ?? 'connected' },
    { type: 'gps', time, lat, lng, speed: o.running === 'off' ? 0 : 40, heading: 90, satellites: 9, accuracy: 5 },
  ];
};

test('the fleet map shows the visible vehicles, filters them, follows a live report and opens a vehicle', async ({
  page,
}) => {
  const [t1, t2, t3, t4] = [1, 2, 3, 4].map(demoTerminal) as [
    ReturnType<typeof demoTerminal>,
    ReturnType<typeof demoTerminal>,
    ReturnType<typeof demoTerminal>,
    ReturnType<typeof demoTerminal>,
  ];
  await sendBatch(page.request, t1, report(35.6812, 139.7671));
  await sendBatch(page.request, t2, report(35.7101, 139.8107, { running: 'off' }));
  await sendBatch(page.request, t3, report(35.6586, 139.7454, { line: 'disconnected' }));
  await sendBatch(page.request, t4, report(35.6298, 139.7946, { connection: 'disconnected' }));

  await loginAs(page, 'tokyo-manager', '/car/car_map');
  await expect(page).toHaveTitle(/車両マップ/);
  const list = page.getByRole('list', { name: '車両一覧（地図と同じ車両）' });
  const map = page.locator('.leaflet-container');
  for (const t of [t1, t2, t3, t4])
    await expect(list.getByRole('button', { name: new RegExp(t.car_id) })).toBeVisible();
  await expect(list).not.toContainText('C000013'); // another company's vehicle
  const row = (t: { car_id: string }) => list.getByRole('button', { name: new RegExp(t.car_id) });
  await expect(row(t1)).toContainText('走行中');
  await expect(row(t2)).toContainText('停止中');
  await expect(row(t3)).toContainText('禁止中');
  await expect(row(t4)).toContainText('通信途絶');

  // The map draws exactly the vehicles the list shows.
  const listed = async () =>
    Number((await page.getByTestId('fleet-count').textContent())!.match(/表示 ([\d,]+)台/)![1]!.replace(/,/g, ''));
  await expect.poll(async () => Number(await map.getAttribute('data-vehicles'))).toBe(await listed());

  await page
    .getByRole('group', { name: '状態' })
    .getByText(/^禁止中/)
    .click();
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(row(t3)).toBeVisible();
  await expect(map).toHaveAttribute('data-vehicles', '1');
  await page
    .getByRole('group', { name: '状態' })
    .getByText(/^禁止中/)
    .click();

  await page.getByLabel('検索（車両番号・車両ID・顧客名）').fill(t2.car_id);
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(map).toHaveAttribute('data-vehicles', '1');

  // A live report changes the vehicle's state without a reload.
  await sendBatch(page.request, t2, report(35.7121, 139.8127, { running: 'on' }));
  await expect(row(t2)).toContainText('走行中', { timeout: 15_000 });

  // The list centres the map (zoom 14) and opens the popup; a click on the marker opens it again.
  await row(t2).click();
  const popup = page.getByTestId('fleet-popup');
  // The close button of the popup showing the vehicle: a popup just closed fades out for 200 ms (Leaflet)
  // with its button still in the page.
  const closePopup = () =>
    page.locator('.leaflet-popup').filter({ has: popup }).locator('.leaflet-popup-close-button').click();
  await expect(popup).toContainText(t2.car_id);
  await closePopup();
  await expect(popup).toHaveCount(0);
  const box = (await map.boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.click(centre.x, centre.y);
  await expect(popup).toContainText(t2.car_id);
  await closePopup();

  // A live move: the marker leaves the centre for its new place (0.01° east: 116.5 px at zoom 14).
  await sendBatch(page.request, t2, report(35.7121, 139.8227, { running: 'off' }));
  await expect(row(t2)).toContainText('停止中', { timeout: 15_000 });
  await page.mouse.click(centre.x, centre.y);
  await expect(popup).toHaveCount(0);
  // The marker is moved on the map's next render after the list shows the state (on a busy machine, a
  // moment later): the click is tried until the marker is there.
  await expect(async () => {
    await page.mouse.click(centre.x + (0.01 / 360) * 256 * 2 ** 14, centre.y);
    await expect(popup).toContainText(t2.car_id, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(popup).toContainText('停止中');
  await popup.getByRole('link', { name: '車両詳細を開く' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/car_detail/${t2.car_id}`));
  await expect(page.getByRole('heading', { name: '車両詳細' })).toBeVisible();
});

test('the fleet map draws only the vehicles in view', async ({ page }) => {
  // Every vehicle of the Tokyo company gets its position from this test, so what is in view does not
  // depend on where other specs left them: two in Shinjuku (116 m apart), one in Osaka, the others
  // 0.2° (some 20 km) around Shinjuku, far beyond the view at zoom 14 and its margin.
  const shinjuku = { lat: 35.6895, lng: 139.6917 };
  const [tokyo, near, osaka] = [5, 7, 6].map(demoTerminal) as [Terminal, Terminal, Terminal];
  await sendBatch(page.request, tokyo, report(shinjuku.lat, shinjuku.lng));
  await sendBatch(page.request, near, report(shinjuku.lat, shinjuku.lng + 0.00128));
  await sendBatch(page.request, osaka, report(34.6937, 135.5023));
  const others = [1, 2, 3, 4, 8, 9, 10, 11].map(demoTerminal);
  for (const [i, t] of others.entries()) {
    const angle = (i / (others.length + 1)) * 2 * Math.PI;
    await sendBatch(
      page.request,
      t,
      report(shinjuku.lat + 0.2 * Math.sin(angle), shinjuku.lng + 0.2 * Math.cos(angle)),
    );
  }
  // D-demo-12 is a phone running Traccar Client: its fix goes through the OsmAnd endpoint.
  const phone = demoTerminal(12);
  const angle = (others.length / (others.length + 1)) * 2 * Math.PI;
  const fix = await page.request.get(
    `/device/osmand/${phone.password}?id=${phone.imei}&lat=${shinjuku.lat + 0.2 * Math.sin(angle)}` +
      `&lon=${shinjuku.lng + 0.2 * Math.cos(angle)}&timestamp=${Math.floor(Date.now() / 1000)}&speed=10`,
  );
  expect(fix.status()).toBe(200);

  await loginAs(page, 'tokyo-manager', '/car/car_map');
  const list = page.getByRole('list', { name: '車両一覧（地図と同じ車両）' });
  const map = page.locator('.leaflet-container');
  for (const t of [tokyo, near, osaka, phone, ...others])
    await expect(list.getByRole('button', { name: new RegExp(t.car_id) })).toBeVisible();
  const listed = Number(
    (await page.getByTestId('fleet-count').textContent())!.match(/表示 ([\d,]+)台/)![1]!.replace(/,/g, ''),
  );
  // Fitted to every vehicle at first: all of them are drawn (clustered or not).
  await expect(map).toHaveAttribute('data-vehicles', String(listed));
  // Centred on the Shinjuku vehicle at zoom 14: its neighbour is drawn, Osaka (400 km away) and the
  // vehicles 20 km away are not; the list still holds them all.
  await list.getByRole('button', { name: new RegExp(tokyo.car_id) }).click();
  await expect(page.getByTestId('fleet-popup')).toContainText(tokyo.car_id);
  await expect(map).toHaveAttribute('data-vehicles', '2');
  await expect(page.getByTestId('fleet-count')).toContainText(`表示 ${listed.toLocaleString('ja-JP')}台`);
  // Zoomed out again step by step (each step redraws), Osaka is back on the map.
  await page.locator('.leaflet-popup-close-button').click();
  for (let step = 0; step < 12 && (await map.getAttribute('data-vehicles')) !== String(listed); step++) {
    const draws = Number(await map.getAttribute('data-draws'));
    await page.locator('.leaflet-control-zoom-out').click();
    await expect.poll(async () => Number(await map.getAttribute('data-draws'))).toBeGreaterThan(draws);
  }
  await expect(map).toHaveAttribute('data-vehicles', String(listed));
});

test('the fleet map at 1366×768', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const kinds = [{}, { running: 'off' }, {}, { line: 'disconnected' }, {}, { connection: 'disconnected' }] as const;
  // The eleven Tokyo terminals that speak the JSON gateway (D-demo-12 is an OsmAnd phone).
  const terminals = Array.from({ length: 11 }, (_, i) => demoTerminal(i + 1));
  for (const [i, t] of terminals.entries()) {
    const angle = ((i + 1) / 12) * 2 * Math.PI;
    await sendBatch(
      page.request,
      t,
      report(35.68 + 0.06 * Math.sin(angle), 139.76 + 0.08 * Math.cos(angle), kinds[(i + 1) % kinds.length]),
    );
  }
  await loginAs(page, 'tokyo-manager', '/car/car_map');
  await expect(page.getByRole('link', { name: '車両マップ' })).toBeVisible();
  const rows = page.getByRole('list', { name: '車両一覧（地図と同じ車両）' }).getByRole('button');
  for (const t of terminals) await expect(rows.filter({ hasText: t.car_id })).toBeVisible();
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-vehicles', String(await rows.count()));
  await page.waitForTimeout(500);
  await page.screenshot({ path: SCREENSHOT });
});
