import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from '@playwright/test';
import { painted, STORE_KEY } from './browser.js';
import type { Fleet } from './generate.js';
import type { Report } from './report.js';
import { login, type BenchServer } from './server.js';
import { kb, ms } from './stats.js';

/**
 * §6 Front end: the JS each screen loads (recorded from a headless page
 * load, gzip-sized from the build), whether map (Leaflet) or chart (uPlot)
 * code comes with it, and the vehicle list's time to first render.
 */
interface Loaded {
  gzip: number;
  files: number;
  map: boolean;
  chart: boolean;
  /** The largest files, gzip bytes. */
  largest: [string, number][];
}

function jsOf(webRoot: string, urls: string[]): Loaded {
  let gzip = 0;
  let map = false;
  let chart = false;
  const sizes: [string, number][] = [];
  for (const u of urls) {
    const file = path.join(webRoot, new URL(u).pathname);
    const text = readFileSync(file);
    const size = gzipSync(text, { level: 9 }).length;
    gzip += size;
    sizes.push([path.basename(file), size]);
    const s = text.toString('latin1');
    map ||= s.includes('leaflet-pane');
    chart ||= s.includes('u-legend') || s.includes('uplot');
  }
  return { gzip, files: urls.length, map, chart, largest: sizes.sort((a, b) => b[1] - a[1]).slice(0, 6) };
}

export async function signedInContext(browser: Browser, url: string): Promise<BrowserContext> {
  const l = await login(url);
  const state = {
    authUser: l.id,
    account_id: l.id,
    name: l.username,
    role: l.role,
    token: l.token,
    company_id: l.company_id,
    isMenuActive: true,
    car_id: null,
    user_id: null,
    car_data_id: null,
    car_device_id: null,
    companies: [],
  };
  return browser.newContext({
    viewport: { width: 1400, height: 1000 },
    storageState: {
      cookies: [],
      origins: [{ origin: url, localStorage: [{ name: STORE_KEY, value: JSON.stringify({ state, version: 1 }) }] }],
    },
  });
}

/** Loads a route in a fresh context (nothing cached) and returns the JS it fetched, once `ready` is on the page. */
async function load(
  browser: Browser,
  server: BenchServer,
  webRoot: string,
  route: string,
  ready: string,
  signedIn: boolean,
) {
  const context = signedIn ? await signedInContext(browser, server.url) : await browser.newContext();
  const page = await context.newPage();
  const js: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) js.push(r.url());
  });
  try {
    await page.goto(`${server.url}${route}`);
    await page.waitForSelector(ready, { timeout: 30_000 });
    await painted(page);
    const renderedAt = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    return { loaded: jsOf(webRoot, [...new Set(js)]), renderedAt };
  } finally {
    await context.close();
  }
}

export async function benchFrontend(
  browser: Browser,
  server: BenchServer,
  webRoot: string,
  fleet: Fleet,
  report: Report,
) {
  const { car_id, car_data_id } = fleet.busy;
  const loginScreen = await load(browser, server, webRoot, '/', 'input[type="password"]', false);
  report.add({
    section: '6 front end',
    name: `JS the login screen loads (${loginScreen.loaded.files} files, gzip -9)`,
    value: kb(loginScreen.loaded.gzip),
    target: '≤ 150 KB, no map or chart code',
    met: loginScreen.loaded.gzip <= 150 * 1024 && !loginScreen.loaded.map && !loginScreen.loaded.chart,
  });
  report.note(
    `largest scripts of the login screen (gzip): ${loginScreen.loaded.largest.map(([f, n]) => `${f} ${kb(n)}`).join(', ')}`,
  );
  const routes: { name: string; route: string; ready: string; uses: 'map' | 'chart' | null }[] = [
    { name: 'vehicle list', route: '/car/car_list', ready: 'tbody tr td', uses: null },
    { name: 'vehicle detail', route: `/car/car_detail/${car_id}/${car_data_id}`, ready: 'main', uses: 'map' },
    {
      name: 'travel route',
      route: `/car/car_travelroute/${car_id}/${car_data_id}`,
      ready: '.leaflet-container',
      uses: 'map',
    },
    { name: 'logs', route: `/car/car_loges/${car_data_id}`, ready: 'table', uses: 'chart' },
    { name: 'engine', route: `/car/car_engine/${car_id}/${car_data_id}`, ready: 'main', uses: null },
    {
      name: 'warning area',
      route: `/car/car_warning_area/${car_id}/${car_data_id}`,
      ready: '.leaflet-container',
      uses: 'map',
    },
    { name: 'customer list', route: '/car/car_user_list', ready: 'tbody tr td', uses: null },
    { name: 'terminal list', route: '/car/device/list', ready: 'tbody tr td', uses: null },
    { name: 'account list', route: '/account/account_list', ready: 'tbody tr td', uses: null },
    { name: 'vehicle add', route: '/car/car_add', ready: 'form', uses: null },
    { name: 'registration wizard', route: '/car/car_user_device_add', ready: 'form', uses: null },
  ];
  const stray: string[] = [];
  for (const r of routes) {
    const { loaded } = await load(browser, server, webRoot, r.route, r.ready, true);
    const extra = [
      loaded.map && r.uses !== 'map' ? 'map' : '',
      loaded.chart && r.uses !== 'chart' ? 'chart' : '',
    ].filter(Boolean);
    if (extra.length) stray.push(`${r.name} (${extra.join(', ')})`);
    report.add({
      section: '6 front end',
      name: `JS for ${r.name} (${r.route.split('/').slice(0, 3).join('/')}…, ${loaded.files} files)`,
      value: kb(loaded.gzip),
      anchor:
        [loaded.map && 'map code', loaded.chart && 'chart code'].filter(Boolean).join(', ') || 'no map or chart code',
    });
  }
  report.add({
    section: '6 front end',
    name: 'map and chart code only on the screens that use them',
    value: stray.length ? `also on: ${stray.join('; ')}` : 'yes',
    target: 'only where used',
    met: stray.length === 0,
  });
  const firstRender: number[] = [];
  for (let i = 0; i < 3; i++)
    firstRender.push((await load(browser, server, webRoot, '/car/car_list', 'tbody tr td', true)).renderedAt);
  firstRender.sort((a, b) => a - b);
  report.add({
    section: '6 front end',
    name: 'vehicle list: navigation start → first rows painted (fresh context)',
    value: `median ${ms(firstRender[1]!)} ms (3 loads)`,
  });
}
