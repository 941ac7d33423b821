import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

/**
 * Phones and maps: the vehicle screens at 390×844 (and still at 1366×768), the route's replay with its stops
 * and speed colours, following a vehicle on the fleet map, the web manifest and the offline page, and the
 * dark colour scheme.
 */
const shot = (name: string) => fileURLToPath(new URL(`../../docs/screenshots/${name}`, import.meta.url));
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1366, height: 768 };

const t = demoTerminal(5);
const jstDay = (offsetDays: number) =>
  new Date(Date.now() + 9 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
/** Yesterday in Japan: the 昨日 preset and the 運行日報 of that day. */
const DAY = jstDay(-1);
const at = (hhmmss: string) => new Date(`${DAY}T${hhmmss}+09:00`);

/**
 * A morning of the vehicle yesterday: parked, a drive north speeding up from 15 to 75 km/h (every colour of
 * the legend), 20 minutes at a customer, a drive west, parked again: 2 trips and 3 stops.
 */
function morning() {
  const records: Record<string, unknown>[] = [];
  const gps = (time: number, lat: number, lng: number, speed: number) =>
    records.push({ type: 'gps', time: new Date(time).toISOString(), lat, lng, speed, heading: 0, satellites: 9 });
  let now = at('10:00:00').getTime();
  let lat = 35.6586;
  let lng = 139.7454;
  const park = (minutes: number) => {
    for (let i = 0; i < minutes * 2; i++, now += 30_000) gps(now, lat, lng, 0);
  };
  const drive = (steps: number, dLat: number, dLng: number, speed: (i: number) => number) => {
    for (let i = 0; i < steps; i++, now += 20_000) {
      lat += dLat;
      lng += dLng;
      gps(now, lat, lng, speed(i));
    }
  };
  park(10);
  drive(40, 0.0015, 0, (i) => 15 + Math.floor(i / 10) * 20);
  park(20);
  drive(24, 0, -0.002, () => 45);
  park(10);
  return records;
}

async function tokenOf(request: APIRequestContext, username: string) {
  const res = await request.post('/api/login', { data: { username, password: DEMO_PASSWORD } });
  return ((await res.json()) as { token: string }).token;
}

/** The page never scrolls sideways. */
async function expectNoSideScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner);
}

/** A period preset of 走行ルート (chips: the radio itself is hidden under its label). */
const preset = (page: Page, name: string) =>
  page.getByRole('radiogroup', { name: '期間' }).getByText(name, { exact: true }).click();

async function expectMapAtLeast300(map: Locator) {
  await expect(map).toBeVisible();
  const box = (await map.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(300);
  expect(box.height).toBeGreaterThanOrEqual(300);
}

test.beforeAll(async ({ request }) => {
  await sendBatch(request, t, morning(), 48_205_001);
  // And where it is now: the detail's latest position.
  await sendBatch(request, t, [
    { type: 'gps', time: new Date().toISOString(), lat: 35.6812, lng: 139.7671, speed: 0, heading: 0, satellites: 9 },
  ]);
  const token = await tokenOf(request, 'tokyo-admin');
  await expect
    .poll(
      async () => {
        const res = await request.post('/api/car_trips', {
          headers: { authorization: `Bearer ${token}` },
          data: { car_data_id: t.imei, from: DAY, to: DAY },
        });
        return ((await res.json()) as { trips?: unknown[] }).trips?.length ?? 0;
      },
      { timeout: 50_000 },
    )
    .toBe(2);
});

const screens = {
  detail: `/car/car_detail/${t.car_id}/${t.imei}`,
  route: `/car/car_travelroute/${t.car_id}/${t.imei}`,
  engine: `/car/car_engine/${t.car_id}/${t.imei}`,
  daily: `/car/car_daily_report/${t.car_id}/${t.imei}?date=${DAY}`,
};

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: PHONE });

  test('車両詳細 shows the map with the latest position first, no sideways scroll', async ({ page }) => {
    await loginAs(page, 'tokyo-admin', screens.detail);
    const map = page.getByTestId('map').first();
    await expectMapAtLeast300(map);
    // The map comes before the cards on a phone.
    const now = page.getByRole('heading', { name: '現在の状態' });
    expect((await map.boundingBox())!.y).toBeLessThan((await now.boundingBox())!.y);
    // The tabs are one row that scrolls inside itself.
    const tabs = page.getByRole('tablist');
    expect((await tabs.boundingBox())!.height).toBeLessThan(60);
    await expectNoSideScroll(page);
    await page.screenshot({ path: shot('car-detail-390x844-after.png'), fullPage: true });
  });

  test('走行ルート: presets wrap, the map is at least 300×300, no sideways scroll', async ({ page }) => {
    await loginAs(page, 'tokyo-admin', screens.route);
    await preset(page, '昨日');
    await expect(page.getByTestId('route-地点数')).not.toHaveText('—');
    await expectMapAtLeast300(page.getByTestId('map'));
    const presets = page.getByRole('radiogroup', { name: '期間' });
    expect((await presets.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSideScroll(page);
    await page.screenshot({ path: shot('car-travelroute-390x844-after.png'), fullPage: true });
  });

  test('エンジン制御: the prohibit dialog takes the screen, its buttons full width', async ({ page }) => {
    await loginAs(page, 'tokyo-admin', screens.engine);
    const prohibit = page.getByRole('button', { name: 'エンジン始動を禁止' });
    await expect(prohibit).toBeVisible();
    // The screen's own buttons are full width too.
    expect((await prohibit.boundingBox())!.width).toBeGreaterThan(PHONE.width * 0.7);
    await expectNoSideScroll(page);
    await page.screenshot({ path: shot('car-engine-390x844-after.png'), fullPage: true });
    await prohibit.click();
    const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
    await expect(dialog).toBeVisible();
    // A trial click waits until the dialog's opening transition has settled.
    await dialog.getByRole('button', { name: 'キャンセル' }).click({ trial: true });
    const box = (await dialog.boundingBox())!;
    expect(Math.round(box.width)).toBe(PHONE.width);
    expect(Math.round(box.height)).toBe(PHONE.height);
    for (const name of ['禁止する', 'キャンセル']) {
      const b = (await dialog.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(b.width).toBeGreaterThan(box.width * 0.8);
      expect(b.height).toBeGreaterThanOrEqual(40);
    }
    await page.screenshot({ path: shot('car-engine-prohibit-390x844-after.png') });
    await dialog.getByRole('button', { name: 'キャンセル' }).click();
    await expect(dialog).toBeHidden();
  });

  test('運行日報: the day picker and tables fit, the map is at least 300×300', async ({ page }) => {
    await loginAs(page, 'tokyo-admin', screens.daily);
    await expect(page.getByTestId('daily-停車回数')).toHaveText('3回');
    await expectMapAtLeast300(page.getByTestId('map'));
    await expect(page.getByRole('button', { name: '翌日' })).toBeInViewport();
    await expectNoSideScroll(page);
    await page.screenshot({ path: shot('car-daily-report-390x844-after.png'), fullPage: true });
  });
});

test('at 1366×768 the same screens keep their desk layout', async ({ page }) => {
  await page.setViewportSize(DESK);
  await loginAs(page, 'tokyo-admin', screens.detail);
  const detailMap = page.getByTestId('map').first();
  await expectMapAtLeast300(detailMap);
  // Two columns: the map beside 現在の状態, not above it.
  const now = (await page.getByRole('heading', { name: '現在の状態' }).boundingBox())!;
  expect((await detailMap.boundingBox())!.x).toBeGreaterThan(now.x + 200);
  await expectNoSideScroll(page);
  for (const url of [screens.route, screens.daily]) {
    await page.goto(url);
    await expectMapAtLeast300(page.getByTestId('map'));
    await expectNoSideScroll(page);
  }
  await page.goto(screens.engine);
  await page.getByRole('button', { name: 'エンジン始動を禁止' }).click();
  const dialog = page.getByRole('dialog', { name: 'エンジン始動禁止' });
  await dialog.getByRole('button', { name: 'キャンセル' }).click({ trial: true });
  // A centred dialog at the desk, the buttons side by side.
  expect((await dialog.boundingBox())!.width).toBeLessThan(700);
  const cancel = (await dialog.getByRole('button', { name: 'キャンセル' }).boundingBox())!;
  const confirm = (await dialog.getByRole('button', { name: '禁止する', exact: true }).boundingBox())!;
  expect(Math.abs(cancel.y - confirm.y)).toBeLessThan(2);
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expectNoSideScroll(page);
});

test('走行ルート replay: 今日/昨日, stop markers, speed colours, playback moves the marker', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', screens.route);
  await preset(page, '昨日');
  // Yesterday's morning: 20 + 40 + 40 + 24 + 20 points.
  await expect(page.getByTestId('route-地点数')).toHaveText('144');
  await expect(page.getByTestId('route-stops')).toHaveText('停車 3か所');
  await expect(page.locator('.leaflet-marker-icon').filter({ hasText: /^[123]$/ })).toHaveCount(3);
  const legend = page.getByTestId('speed-legend');
  for (const band of ['〜20 km/h', '20〜40 km/h', '40〜60 km/h', '60〜80 km/h', '80 km/h〜'])
    await expect(legend).toContainText(band);

  const marker = page.getByTestId('replay-marker');
  // A new route puts the marker at its end; 再生 starts again from the first point.
  const end = await marker.getAttribute('data-at');
  await page.getByText('60×', { exact: true }).click();
  await page.getByRole('button', { name: '再生' }).click();
  await expect(page.getByRole('button', { name: '一時停止' })).toBeVisible();
  await expect(marker).toHaveAttribute('data-at', '35.658600,139.745400');
  // Ten minutes parked (ten seconds at 60×), then it drives north.
  await expect
    .poll(async () => Number((await marker.getAttribute('data-at'))!.split(',')[0]), { timeout: 30_000 })
    .toBeGreaterThan(35.66);
  await page.getByRole('button', { name: '一時停止' }).click();
  const paused = await marker.getAttribute('data-at');
  expect(paused).not.toBe(end);
  await expect(page.getByTestId('route-cursor')).toContainText(DAY.replace(/-/g, '/'));
  await expect(marker).toHaveAttribute('data-at', paused!);

  // 今日 shows today's report only: the marker where the vehicle is now.
  await preset(page, '今日');
  await expect(page.getByTestId('route-地点数')).not.toHaveText('144');
  await expect(marker).toHaveAttribute('data-at', '35.681200,139.767100');
});

test('車両マップ: この車両を追従 keeps the map on the vehicle as it reports, until 追従を解除', async ({ page }) => {
  const v = demoTerminal(6);
  const report = (lat: number, lng: number) => {
    const time = new Date().toISOString();
    return [
      { type: 'engine', time, running: 'on', engine_line: 'connected' },
      { type: 'gps', time, lat, lng, speed: 40, heading: 0, satellites: 9 },
    ];
  };
  await sendBatch(page.request, v, report(35.7, 139.7));
  await loginAs(page, 'tokyo-admin', '/car/car_map');
  const map = page.locator('.leaflet-container');
  await page
    .getByRole('list', { name: '車両一覧（地図と同じ車両）' })
    .getByRole('button', { name: new RegExp(v.car_id) })
    .click();
  const popup = page.getByTestId('fleet-popup');
  await popup.getByRole('button', { name: 'この車両を追従' }).click();
  await expect(page.getByTestId('follow-banner')).toContainText('追従中');
  await expect(map).toHaveAttribute('data-follow-center', '35.700000,139.700000');

  // A live report far away: the map follows it.
  await sendBatch(page.request, v, report(35.45, 139.63));
  await expect(map).toHaveAttribute('data-follow-center', '35.450000,139.630000');
  await expect
    .poll(async () =>
      page.evaluate(() => {
        const box = document.querySelector('.leaflet-container')!.getBoundingClientRect();
        // The vehicle's marker is drawn on the canvas; the popup's tip sits on it, at the map's centre.
        const tip = document.querySelector('.leaflet-popup-tip-container')!.getBoundingClientRect();
        return Math.abs(tip.left + tip.width / 2 - (box.left + box.width / 2)) < 20;
      }),
    )
    .toBe(true);

  await page.screenshot({ path: shot('car-map-follow-1366-after.png') });
  await page.getByTestId('follow-banner').getByRole('button', { name: '追従を解除' }).click();
  await expect(page.getByTestId('follow-banner')).toHaveCount(0);
  await expect(map).not.toHaveAttribute('data-follow-center', /./);
});

test('PWA: the manifest is served and valid, with its icons', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/application\/manifest\+json/);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    lang: string;
    start_url: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest.name).toBe('フリートコンソール');
  expect(manifest.lang).toBe('ja');
  expect(manifest.start_url).toBe('/');
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.type === 'image/png');
    expect(icon).toBeTruthy();
    const png = await request.get(icon!.src);
    expect(png.headers()['content-type']).toBe('image/png');
    const bytes = await png.body();
    // The PNG signature, and the width and height of its IHDR.
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([size, size]);
  }
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', manifest.theme_color);
});

test('offline: the service worker answers a page load with the offline page', async ({ page, context }) => {
  await page.setViewportSize(PHONE);
  await loginAs(page, 'tokyo-admin', '/car/car_list');
  // Once the worker is active, every page load in its scope goes through it.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toMatch(/\/sw\.js$/);
  await context.setOffline(true);
  try {
    await page.goto('/car/car_map');
    await expect(page.getByRole('heading', { name: 'ネットワークに接続できません' })).toBeVisible();
    await expect(page.locator('body')).toContainText('通信環境');
    await page.screenshot({ path: shot('offline-390x844.png') });
  } finally {
    await context.setOffline(false);
  }
  await page.goto('/car/car_map');
  await expect(page).toHaveTitle(/車両マップ/);
});

test.describe('dark colour scheme', () => {
  test.use({ colorScheme: 'dark', viewport: PHONE });

  test('follows the system: dark surfaces, darkened map tiles, readable overlays', async ({ page }) => {
    await loginAs(page, 'tokyo-admin', screens.route);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await preset(page, '昨日');
    await expect(page.getByTestId('route-地点数')).toHaveText('144');
    const bg = await page
      .locator('main')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(150);
    await expect(page.locator('.leaflet-tile-pane')).toHaveCSS('filter', /invert/);
    await page.screenshot({ path: shot('car-travelroute-390x844-dark.png'), fullPage: true });
    await page.goto('/car/car_map');
    await expect(page.getByTestId('fleet-count')).toBeVisible();
    await page.screenshot({ path: shot('car-map-390x844-dark.png'), fullPage: true });
  });
});
