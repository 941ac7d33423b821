import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, expect, loginAs, test } from '../support/fixtures';
import { demoTerminal, sendBatch } from '../support/terminal';

/**
 * Addresses and places (docs/geocoding.md) against the loopback stub of GSI's services (support/gsi-stub.ts):
 * the map's search box moves the map, and a vehicle's detail lists よく停まる場所 with its night place first.
 */
const shot = (name: string) => `/tmp/places-${name}.png`;

/** A kanagawa vehicle no other spec reports for. */
const t = demoTerminal(16);
const HOME = { lat: 35.7101, lng: 139.7771 };
const OFFICE = { lat: 35.6812, lng: 139.7671 };
const HOUR = 3_600_000;

/**
 * Two nights parked at HOME and the day between at OFFICE, a point a minute, on Japan's clock whatever
 * the hour the test runs: HOME from 19:40 to 09:00, OFFICE from 09:10 to 17:40, HOME again from 17:50,
 * ending at the last 09:00 (JST) at least ten minutes ago. (Counted back from the run's own hour, the
 * nights fell at OFFICE in an evening run.)
 */
function twoNights(): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  const JST = 9 * HOUR;
  const midnight = Math.floor((Date.now() + JST) / (24 * HOUR)) * 24 * HOUR - JST;
  let end = midnight + 9 * HOUR;
  if (end > Date.now() - 10 * 60_000) end -= 24 * HOUR;
  let now = end - (13 + 1 / 3 + 8.5 + 15 + 1 / 6) * HOUR - 20 * 60_000;
  const park = (p: { lat: number; lng: number }, hours: number) => {
    for (const end = now + hours * HOUR; now < end; now += 60_000)
      records.push({ type: 'gps', time: new Date(now).toISOString(), ...p, speed: 0, heading: 0, satellites: 9 });
  };
  const drive = (from: typeof HOME, to: typeof HOME) => {
    for (let i = 1; i <= 20; i++, now += 30_000)
      records.push({
        type: 'gps',
        time: new Date(now).toISOString(),
        lat: from.lat + ((to.lat - from.lat) * i) / 20,
        lng: from.lng + ((to.lng - from.lng) * i) / 20,
        speed: 30,
        heading: 180,
        satellites: 9,
      });
  };
  park(HOME, 13 + 1 / 3);
  drive(HOME, OFFICE);
  park(OFFICE, 8.5);
  drive(OFFICE, HOME);
  park(HOME, 15 + 1 / 6);
  return records;
}

async function placesOf(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: { username: 'kanagawa-admin', password: DEMO_PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const to = new Date(Date.now() + 9 * HOUR).toISOString().slice(0, 10);
  const from = new Date(Date.now() + 9 * HOUR - 29 * 24 * HOUR).toISOString().slice(0, 10);
  const res = await request.post('/api/car_places', {
    data: { car_data_id: t.imei, from, to },
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { places: { address: string | null; night_s: number }[] }).places;
}

test('typing 丸の内 in a map search box moves the map there', async ({ page }) => {
  await loginAs(page, 'tokyo-admin', '/car/car_map');
  const map = page.locator('.leaflet-container').first();
  const box = map.getByRole('textbox', { name: '地名・住所で検索' });
  await box.fill('丸の内');
  await box.press('Enter');
  const first = map.getByRole('button', { name: '東京都千代田区丸の内一丁目' });
  await expect(first).toBeVisible();
  await expect(map.getByRole('button', { name: '東京都千代田区丸の内二丁目' })).toBeVisible();
  await first.click();
  const found = map.locator('.place-search-found');
  await expect(found).toHaveText('東京都千代田区丸の内一丁目');
  // The found place sits at the map's centre (its tooltip just above it).
  const [m, f] = [await map.boundingBox(), await found.boundingBox()];
  expect(Math.abs(f!.x + f!.width / 2 - (m!.x + m!.width / 2))).toBeLessThan(30);
  expect(Math.abs(f!.y + f!.height - (m!.y + m!.height / 2))).toBeLessThan(40);
  await page.screenshot({ path: shot('search') });
});

test('a vehicle detail shows よく停まる場所, the night place first, with addresses', async ({ page }) => {
  const records = twoNights();
  for (let i = 0; i < records.length; i += 1000) await sendBatch(page.request, t, records.slice(i, i + 1000));
  // Positions are stored first; the detection job finds the stops, the geocode job their addresses.
  await expect
    .poll(
      async () => {
        const places = await placesOf(page.request);
        return places.length >= 2 && places.every((p) => p.address !== null);
      },
      { timeout: 45_000, intervals: [1_000] },
    )
    .toBe(true);
  await loginAs(page, 'kanagawa-admin', `/car/car_detail/${t.car_id}/${t.imei}`);
  const card = page.getByRole('region', { name: 'よく停まる場所' });
  await expect(card).toBeVisible();
  const rows = card.getByRole('row');
  await expect(rows.nth(1)).toContainText('夜間によく停まる場所');
  await expect(rows.nth(1)).toContainText('東京都台東区上野七丁目');
  await expect(rows.nth(2)).toContainText('東京都千代田区丸の内一丁目');
  await expect(page.getByTestId('latest-address')).toHaveText('東京都台東区上野七丁目');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('detail'), fullPage: true });
});
