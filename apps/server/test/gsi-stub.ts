import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for GSI's two services, answering in their exact formats (docs/geocoding.md):
 * - LonLatToAddress `GET ?lat=&lon=` → `{"results":{"muniCd":"13101","lv01Nm":"丸の内一丁目"}}` (東京, east of
 *   longitude 139), 大阪市北区 (longitude 135-136), and `{}` elsewhere (at sea);
 * - AddressSearch `GET ?q=` → a bare array of GeoJSON Point features, `properties.title` the name.
 * `mode` makes it fail (HTTP 500), hang (never answers), answer slowly (`slowMs`) or answer garbage.
 */
export type StubMode = 'ok' | 'fail' | 'hang' | 'slow' | 'garbage';

export interface GsiStub {
  reverseUrl: string;
  searchUrl: string;
  mode: StubMode;
  slowMs: number;
  /** Every request, with when it arrived (performance.now()). */
  requests: { service: 'reverse' | 'search'; query: URLSearchParams; at: number }[];
  close(): Promise<void>;
}

const MARUNOUCHI = [
  { lng: 139.766084, lat: 35.681236, title: '東京都千代田区丸の内一丁目' },
  { lng: 139.763328, lat: 35.679245, title: '東京都千代田区丸の内二丁目' },
];

function reverseAnswer(q: URLSearchParams): unknown {
  const lon = Number(q.get('lon'));
  if (lon >= 139 && lon < 140) return { results: { muniCd: '13101', lv01Nm: '丸の内一丁目' } };
  if (lon >= 135 && lon < 136) return { results: { muniCd: '27127', lv01Nm: '梅田一丁目' } };
  return {};
}

function searchAnswer(q: URLSearchParams): unknown {
  const words = q.get('q') ?? '';
  return MARUNOUCHI.filter((p) => p.title.includes(words)).map((p) => ({
    geometry: { coordinates: [p.lng, p.lat], type: 'Point' },
    type: 'Feature',
    properties: { addressCode: '', title: p.title },
  }));
}

export async function startGsiStub(): Promise<GsiStub> {
  const open = new Set<ServerResponse>();
  const stub: Omit<GsiStub, 'reverseUrl' | 'searchUrl' | 'close'> = { mode: 'ok', slowMs: 300, requests: [] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const service = url.pathname.endsWith('/LonLatToAddress') ? 'reverse' : 'search';
    stub.requests.push({ service, query: url.searchParams, at: performance.now() });
    open.add(res);
    res.once('close', () => open.delete(res));
    const answer = () => {
      if (stub.mode === 'fail') return res.writeHead(500).end('Internal Server Error');
      if (stub.mode === 'garbage') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      const body = service === 'reverse' ? reverseAnswer(url.searchParams) : searchAnswer(url.searchParams);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (stub.mode === 'hang') return;
    if (stub.mode === 'slow') setTimeout(answer, stub.slowMs);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(stub, {
    reverseUrl: `${base}/reverse-geocoder/LonLatToAddress`,
    searchUrl: `${base}/address-search/AddressSearch`,
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  }) as GsiStub;
}
