import express from 'express';
import {
  AppError,
  bodyObject,
  errorMiddleware,
  healthRoutes,
  jsonBody,
  listen,
  notFoundHandler,
  requestId,
  validationFailed,
  type RunningServer,
} from '@mailer/shared';
import { memoryLogger } from './helpers';

describe('HTTP plumbing', () => {
  const { logger, lines } = memoryLogger();
  let server: RunningServer;
  let redisUp = true;

  beforeAll(async () => {
    const app = express();
    app.use(requestId());
    app.use(healthRoutes('test', [{ name: 'redis', check: () => (redisUp ? undefined : Promise.reject(new Error('down'))) }]));
    app.post('/echo', jsonBody('1kb'), (req, res) => {
      res.json(bodyObject(req.body));
    });
    app.get('/invalid', () => {
      throw validationFailed(['email: is invalid'], { domain_error: 'no_mx' });
    });
    app.get('/boom', () => {
      throw new Error('secret internals at /srv/app.js:10');
    });
    app.get('/db-down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    app.get('/custom', () => {
      throw new AppError('THING.GONE', 'thing is gone');
    });
    app.use(notFoundHandler());
    app.use(errorMiddleware(logger, { 'THING.GONE': 410 }));
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  const call = (path: string, init?: RequestInit) => fetch(server.url + path, init);
  const post = (body: string) => call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('answers 400 JSON for a body that is not JSON, and for JSON that is not an object', async () => {
    for (const body of ['{"a":', '[1,2]', '"text"']) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('answers 413 JSON for a body over the limit', async () => {
    const response = await post(JSON.stringify({ a: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('answers 422 with errors and details, a service code with its own status, and 404 for unknown routes', async () => {
    const invalid = await call('/invalid');
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ errors: ['email: is invalid'], domain_error: 'no_mx' });
    expect((await call('/custom')).status).toBe(410);
    const missing = await call('/nowhere');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'route not found' });
  });

  it('never sends a stack or internal message on 500, and answers 503 when a dependency is down', async () => {
    const boom = await call('/boom');
    expect(boom.status).toBe(500);
    expect(await boom.text()).toBe('{"error":"internal server error"}');
    const down = await call('/db-down');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(lines.some((line) => line.includes('secret internals'))).toBe(true);
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    expect((await call('/healthz', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
    const replaced = (await call('/healthz', { headers: { 'x-request-id': 'x'.repeat(300) } })).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness from its checks', async () => {
    expect((await call('/readyz')).status).toBe(200);
    redisUp = false;
    const notReady = await call('/readyz');
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ status: 'not ready', checks: { redis: 'down' } });
    redisUp = true;
  });
});
