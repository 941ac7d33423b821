/** Downloads one URL with a bearer token in a process of its own; prints bytes, lines and timings as JSON. */
import http from 'node:http';

const opts = JSON.parse(process.argv[2]!) as { url: string; token: string };
const started = performance.now();
const result = await new Promise<{ status: number; bytes: number; lines: number; firstByteMs: number }>(
  (resolve, reject) => {
    http
      .get(opts.url, { headers: { authorization: `Bearer ${opts.token}` } }, (res) => {
        let bytes = 0;
        let lines = 0;
        let firstByteMs = NaN;
        res.on('data', (chunk: Buffer) => {
          if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines, firstByteMs }));
        res.on('error', reject);
      })
      .on('error', reject);
  },
);
console.log(JSON.stringify({ ...result, seconds: (performance.now() - started) / 1000 }));
