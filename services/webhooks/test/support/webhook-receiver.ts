import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook endpoint for tests: a real HTTP server on loopback that records every request and
 * answers what `answer` says (default 200), so a test can script failures and slowness.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { answer: (_request: ReceivedWebhook): number | 'hang' => 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const answer = state.answer(request);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Decides each answer: a status, or 'hang' to never answer. */
    set answer(decide: (request: ReceivedWebhook) => number | 'hang') {
      state.answer = decide;
    },
    /** The parsed bodies of `requests`, each checked with the library against `secret` (throws if one does not verify). */
    verified(secret: string, requests: ReceivedWebhook[]) {
      return requests.map((request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
