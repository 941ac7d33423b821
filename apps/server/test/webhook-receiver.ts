import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real local HTTP receiver for webhook tests: records every call and answers with the next status of
 * `answers` (then 200). `hang` keeps answering nothing, as a receiver that stalls.
 */
export async function startWebhookReceiver() {
  const calls: ReceivedCall[] = [];
  const answers: number[] = [];
  const state = { hang: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.hang) return;
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    answers,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
