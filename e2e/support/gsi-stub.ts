import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * GSI's two services on loopback for the browser tests (docs/geocoding.md), in their exact formats:
 * LonLatToAddress (`{"results":{"muniCd","lv01Nm"}}`: 台東区上野七丁目 north of latitude 35.69 in Tokyo,
 * 千代田区丸の内一丁目 south of it) and AddressSearch (GeoJSON features; 丸の内 finds two).
 */
const MARUNOUCHI = [
  { lng: 139.766084, lat: 35.681236, title: '東京都千代田区丸の内一丁目' },
  { lng: 139.763328, lat: 35.679245, title: '東京都千代田区丸の内二丁目' },
];

export async function startGsiStub(): Promise<{ reverseUrl: string; searchUrl: string; close(): void }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const q = url.searchParams;
    let body: unknown;
    if (url.pathname.endsWith('/LonLatToAddress')) {
      const lat = Number(q.get('lat'));
      const lon = Number(q.get('lon'));
      body =
        lon >= 139 && lon < 140
          ? {
              results:
                lat >= 35.69 ? { muniCd: '13106', lv01Nm: '上野七丁目' } : { muniCd: '13101', lv01Nm: '丸の内一丁目' },
            }
          : {};
    } else {
      const words = q.get('q') ?? '';
      body = MARUNOUCHI.filter((p) => p.title.includes(words)).map((p) => ({
        geometry: { coordinates: [p.lng, p.lat], type: 'Point' },
        type: 'Feature',
        properties: { addressCode: '', title: p.title },
      }));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    reverseUrl: `${base}/reverse-geocoder/LonLatToAddress`,
    searchUrl: `${base}/address-search/AddressSearch`,
    close: () => server.close(),
  };
}
