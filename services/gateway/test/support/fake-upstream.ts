import express from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { createLogger, errorMiddleware, identityOf, listen, requireIdentity, verifySignedBody, type RunningServer } from '@mailer/shared';
import { TEST_SIGNING_SECRET } from '@mailer/testing';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  accountId?: number;
}

/**
 * Stands in for an internal service (contacts, events, automation): verifies the gateway's
 * signature like the real ones, keeps what it received, and owns resources per account, so a
 * contact of another account answers 404.
 */
export async function startFakeUpstream(options: { requireSignature?: boolean } = {}) {
  const seen: SeenRequest[] = [];
  const owners = new Map<number, number>();
  const app = express();
  const record = (req: express.Request, accountId?: number) =>
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers, body: typeof req.body === 'string' ? req.body : '', accountId });
  app.all('/unsubscribe/{*rest}', express.text({ type: '*/*' }), (req, res) => {
    record(req);
    res.status(200).json({ unsubscribed: true });
  });
  // A tracked link: a redirect the gateway must hand back, never follow.
  app.get('/t/c/{*rest}', (req, res) => {
    record(req);
    res.status(302).set({ Location: 'https://example.test/landing', 'Cache-Control': 'no-store, max-age=0' }).end();
  });
  if (options.requireSignature ?? true) app.use(requireIdentity(TEST_SIGNING_SECRET));
  // Like the real services' jsonBody: the body read must be the one the signature covers.
  app.use(express.text({ type: '*/*', verify: verifySignedBody }));
  app.get('/{*rest}/slow', (req, res) => {
    const timer = setTimeout(() => res.json({ late: true }), 5000);
    req.on('close', () => clearTimeout(timer));
  });
  app.get('/{*rest}/big', (_req, res) => {
    res.type('text').send('x'.repeat(300_000));
  });
  app.get('/api/v1/contacts/:id', (req, res) => {
    const { accountId } = identityOf(res);
    record(req, accountId);
    const owner = owners.get(Number(req.params.id));
    if (owner !== accountId) {
      res.status(404).json({ error: 'contact not found' });
      return;
    }
    res.setHeader('Connection', 'keep-alive, X-Internal-Hop');
    res.setHeader('X-Internal-Hop', 'secret');
    res.setHeader('X-RateLimit-Limit', '999999');
    res.json({ data: { id: Number(req.params.id), account_id: accountId } });
  });
  app.all('/{*rest}', (req, res) => {
    const { accountId } = identityOf(res);
    record(req, accountId);
    res.status(req.method === 'POST' ? 201 : 200).json({ ok: true, path: req.originalUrl, account_id: accountId });
  });
  app.use(errorMiddleware(createLogger('fake-upstream', { level: 'silent' })));
  const server: RunningServer = await listen(app, 0, '127.0.0.1');
  return {
    url: server.url,
    seen,
    /** Declares that contact `id` belongs to `accountId`. */
    own: (id: number, accountId: number) => owners.set(id, accountId),
    close: () => server.close(100),
  };
}
